// The plotly.js the site serves and the live widgets send: Plotly's core (the scatter trace and every
// component: axes, legends, colour bars, shapes, annotations, hover, the tool bar) and the two other trace
// types the course's figures draw. A demo may use no other (rope_viz.site.sphinx_ext.PLOTLY_BUNDLE_TRACE_TYPES,
// checked by tests/test_demos.py).
"use strict";

const Plotly = require("plotly.js/lib/core");

Plotly.register([require("plotly.js/lib/bar"), require("plotly.js/lib/heatmap")]);

module.exports = Plotly;
