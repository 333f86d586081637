/* rope-viz: draw a slider step straight in the SVG that Plotly already drew.
 *
 * A full Plotly.update redraws every axis, label and legend of a figure: 30 to 150 ms here, several frames.
 * Most steps move only a few things, and moving them in the SVG takes a few milliseconds: line and fill
 * paths, marker and label positions, marker colours, bar heights, heatmap cells; axis ranges with their
 * gridlines and tick labels (the site writes such axes with explicit ticks in every state, see
 * rope_viz/figures/direct_drawing.py); shapes; annotations. Heatmaps and clouds of markers are painted on
 * canvas layers instead (rope-viz-canvas.js). rope-viz-figures.js asks this module first; when a step needs
 * anything it does not cover, it says so before touching the page, and Plotly redraws. (Plotly's own
 * Plotly.animate with redraw: false, measured as the alternative, takes ten times as long or more a step on
 * the course's figures: benchmarks/README.md.)
 *
 * The direct drawing is a preview: Plotly's own data (hover labels, later redraws) still hold the state it
 * last drew, so the figure script hands the settled state to Plotly once the slider rests. Positions follow
 * Plotly's own axis mapping, so the preview and Plotly's drawing coincide; a browser test compares the two
 * pixel by pixel for steps of every slider.
 *
 * This file is the one adapter to Plotly's internals (rope-viz-canvas.js only paints on canvases what it is
 * handed; tests/test_plotly_fence.py checks that no other script reads an internal). It relies on, in the
 * plotly.js named by TESTED_PLOTLY_VERSION in rope-viz-figures.js:
 *   - gd._fullLayout: per axis (xaxis, yaxis2, ...) _id, _length, _offset, range, type, autorange, showgrid,
 *     gridcolor, gridwidth, zeroline, zerolinecolor, zerolinewidth, showticklabels, ticks, side, title (its standoff
 *     set or not); showlegend; shapes and annotations (type, xref, yref, x0..y1, x, y); width, _reservedMargin,
 *     margin (l, r, t, b, autoexpand) and _size (l, w); _plots[<x id><y id>].layerClipId (set when the subplot
 *     holds a cliponaxis: false trace: Plotly then hides markers and labels outside the ranges with the
 *     display attribute);
 *   - gd._fullData: per trace type, visible, showlegend, xaxis, yaxis, uid, cliponaxis, marker, mode, fill,
 *     line, x0, dx, y0, dy; colorbar (orientation, x, xanchor, xref, yref, xpad, thickness, thicknessmode,
 *     outlinewidth, borderwidth, bgcolor, tickmode, ticklabelposition, title.side);
 *   - for the presenter view (placement, below): gd._fullLayout height, _size (h, l, r, t, b), showlegend, legends (y,
 *     yref), axes (domain, overlaying, scaleanchor, scaleratio, _offset, _length), shapes and annotations (yref, y, y0, y1); gd._fullData
 *     colorbar (y, len, yanchor, yref, orientation, lenmode) and index;
 *   - d3's __data__ on each trace's group (calcdata: bound[0].trace.index), copied onto cloned elements;
 *   - the SVG classes g.trace, g.hm, g.lines path.js-line, g.fills path.js-fill, g.points path.point,
 *     g.text g.textpoint, g.point path (bars), g.hm image and g.heatmap-label, g.cb<uid> with
 *     g.cbaxis g.*tick and rect.cbbg,
 *     g.<axis id>tick, path.<axis id>grid, path.<axis id>tick, path.<axis id>zl, g.legend g.traces with
 *     g.legendlines path.js-line and path.scatterpts,
 *     g.shapelayer path[data-index], g.annotation[data-index] with g.cursor-pointer and text.annotation-text,
 *     g.g-<axis id>title text.<axis id>title (a y axis's title: turned by rotate(-90,x,y), pushed by a
 *     translate() on its group);
 *     text elements' data-unformatted;
 *   - how Plotly strokes a line (path.js-line, also in the legend): stroke rgb() and stroke-opacity styles;
 *   - Plotly's path formats: lines "Mx,yLx,y..." (two decimals), bars "Mx,yVyHxVyZ", rectangle shapes
 *     "Mx,yHxVyHxZ", circle markers "Mr,0Ar,r 0 1,1 0,-rAr,r 0 0,1 r,0Z", tick labels placed by translate();
 *   - how Plotly sizes a vertical colour bar (the width of its background, rect.cbbg: 2 xpad + borderwidth +
 *     thickness + outlinewidth + the width of its column of labels, or its title's width if larger) and
 *     widens the figure's margin to fit it (the bar and a pad of min(12, margins) beside it).
 * Nothing here is computed beyond placing precomputed values on the page: every number comes from rope_viz.
 */
(function () {
  "use strict";

  /* A trace's markers are painted on a canvas layer (rope-viz-canvas.js) from this many on. Moving an SVG
     marker costs chromium about 17 microseconds, so a cloud of hundreds is much faster on a canvas; but a
     canvas layer is a layer of its own for the compositor, and so is whatever the plot draws over it, each
     as large as the plot. Where few markers move, the layers cost more than they save: in the presenter
     view at 1920x1080, in software, the frame of a step with such layers took 8.6 to 10.6 ms to composite,
     one that repainted the whole plot without them 2.3 to 2.9 ms (benchmarks/README.md, "Canvas layers only
     where they pay"). The course's clouds of 256 and 576 markers go on a canvas; its traces of 64 or so stay
     in the SVG. */
  var CANVAS_MARKERS = 128;
  var SCATTER_KEYS = ["x", "y", "text", "customdata", "hovertext", "marker.color", "marker.size", "marker.cmax",
    "line.color"];
  var BAR_KEYS = ["y", "customdata", "hovertext"];
  var HEATMAP_KEYS = ["x", "y", "z", "zmin", "zmax", "customdata", "text", "hovertext", "colorbar.tickvals",
    "colorbar.ticktext"];
  /* Label widths this close (pixels) are equal: the same glyphs' advances, summed in another order. */
  var SAME_WIDTH = 0.01;
  /* Pixels a colour bar must leave beside its pad at the figure's edge to be sure it does not set the margin
     (Plotly rounds the margins it computes, and the plot's width with them). */
  var COLORBAR_ROOM = 2;

  function isEmpty(values) {
    return Array.isArray(values) && values.length === 0;
  }

  function isNumber(value) {
    return typeof value === "number" && isFinite(value);
  }

  function round2(value) {
    return Math.round(value * 100) / 100;
  }

  /* Write only what changes: every write makes chromium restyle and repaint the element. */
  function setAttribute(element, name, value) {
    value = String(value);
    if (element.getAttribute(name) !== value) { element.setAttribute(name, value); }
  }

  /* Set attribute `name`, or remove it if `value` is null; only if that changes it. */
  function setOrRemove(element, name, value) {
    if (value === null) {
      if (element.hasAttribute(name)) { element.removeAttribute(name); }
    } else {
      setAttribute(element, name, value);
    }
  }

  function setStyle(element, property, value) {
    if (element.style[property] !== value) { element.style[property] = value; }
  }

  /* ---- colours ---------------------------------------------------------------------------------------- */

  var colorCache = {};

  /* A CSS colour as [r, g, b, a]: #rgb, #rrggbb and comma-separated rgb()/rgba() (what Plotly writes) read
     here, anything else (a colour name, other syntaxes) through a canvas, which writes it as one of them. */
  function parseColor(text) {
    if (text in colorCache) { return colorCache[text]; }
    var normal = String(text).trim();
    if (!/^(#([\da-f]{3}|[\da-f]{6})$|rgba?\(\s*[\d.]+\s*,)/i.test(normal)) {
      var probe = document.createElement("canvas").getContext("2d");
      probe.fillStyle = "#000";
      probe.fillStyle = normal;
      normal = probe.fillStyle;
    }
    var rgba;
    if (normal.charAt(0) === "#") {
      var hex = normal.slice(1);
      if (hex.length === 3) { hex = hex.replace(/./g, "$&$&"); }
      rgba = [0, 2, 4].map(function (at) { return parseInt(hex.slice(at, at + 2), 16); }).concat([1]);
    } else {
      rgba = normal.replace(/[^\d.,]/g, "").split(",").map(Number);
      if (rgba.length === 3) { rgba.push(1); }
    }
    colorCache[text] = rgba;
    return rgba;
  }

  /* A colour [r, g, b, a] (a in 0..1; null: nothing) as one pixel of an ImageData seen as 32-bit words. */
  var LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  function pixelWord(rgba) {
    if (!rgba) { return 0; }
    var bytes = [Math.round(rgba[0]), Math.round(rgba[1]), Math.round(rgba[2]), Math.round(rgba[3] * 255)];
    if (LITTLE_ENDIAN) { bytes.reverse(); }
    return ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  }

  /* Plotly's colour scales: linear interpolation in RGB between the stops, values clamped to [low, high]. */
  function colorScale(stops, low, high) {
    var positions = stops.map(function (stop) { return stop[0]; });
    var colors = stops.map(function (stop) { return parseColor(stop[1]); });
    return function (value) {
      if (!isNumber(value)) { return null; }
      var t = high > low ? (value - low) / (high - low) : 0.5;
      t = Math.min(1, Math.max(0, t));
      var k = 0;
      while (k < positions.length - 2 && t > positions[k + 1]) { k++; }
      var span = positions[k + 1] - positions[k];
      var f = span > 0 ? (t - positions[k]) / span : 0;
      return colors[k].map(function (channel, c) { return channel + f * (colors[k + 1][c] - channel); });
    };
  }

  /* Relative luminance (WCAG) of an sRGB colour given by channels 0 to 255 (rounded, as in a CSS colour):
     0.2126 R + 0.7152 G + 0.0722 B over the linear channels. */
  function luminance(rgb) {
    var linear = rgb.slice(0, 3).map(function (channel) {
      var c = Math.round(channel) / 255;
      return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  }
  var PLOTLY_GREY = luminance([68, 68, 68]);
  function contrastRatio(a, b) { return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }

  /* Plotly's label colour on a cell (its Color.contrast): white where white contrasts more with the cell than
     its dark grey #444 does, by the WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05); the grey otherwise. */
  function contrast(rgba) {
    var cell = luminance(rgba);
    return contrastRatio(cell, 1) > contrastRatio(cell, PLOTLY_GREY) ? "rgb(255, 255, 255)" : "rgb(68, 68, 68)";
  }

  function cssColor(rgba) {
    var rgb = Math.round(rgba[0]) + ", " + Math.round(rgba[1]) + ", " + Math.round(rgba[2]);
    return "rgb(" + rgb + ")";
  }

  function extent(values) {
    var low = Infinity;
    var high = -Infinity;
    values.forEach(function (value) {
      if (Array.isArray(value)) {
        var inner = extent(value);
        low = Math.min(low, inner[0]);
        high = Math.max(high, inner[1]);
      } else if (isNumber(value)) {
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
    });
    return [low, high];
  }

  /* ---- axes and paths ---------------------------------------------------------------------------------- */

  /* Pixel position along an axis of `length` pixels (from the start of its subplot) of a value in Plotly's
     linear units (the exponent on a log axis), as Plotly's l2p computes it: x grows to the right, y upwards
     from the bottom of the subplot. */
  function axisPixel(letter, range, length) {
    return function (l) {
      var fraction = (l - range[0]) / (range[1] - range[0]);
      return letter === "x" ? fraction * length : (1 - fraction) * length;
    };
  }

  /* The same for a data value (Plotly's c2p): its base-ten logarithm on a log axis; NaN for a missing or
     non-positive (on a log axis) value. */
  function dataToPixel(axisType, linear) {
    var log = axisType === "log";
    return function (v) {
      if (v === null || v === undefined || v === "") { return NaN; }
      var number = Number(v);
      return linear(log ? (number > 0 ? Math.log10(number) : NaN) : number);
    };
  }

  /* The runs of points between gaps (null points): Plotly's lines break there (connectgaps off). */
  function segments(points) {
    var out = [];
    var current = [];
    points.forEach(function (point) {
      if (point) {
        current.push(point);
      } else if (current.length) {
        out.push(current);
        current = [];
      }
    });
    if (current.length) { out.push(current); }
    return out;
  }

  /* An SVG path through the points, in Plotly's format (M x,y L x,y ..., two decimals). */
  function pathOf(segment) {
    return "M" + segment.map(function (p) { return round2(p[0]) + "," + round2(p[1]); }).join("L");
  }

  /* Heatmap cell edges from cell centres, as Plotly places them: halfway between neighbours, and half a
     step beyond the first and last (a single cell is one unit wide). */
  function edges(centers) {
    var n = centers.length;
    if (n === 1) { return [centers[0] - 0.5, centers[0] + 0.5]; }
    var out = [centers[0] - (centers[1] - centers[0]) / 2];
    for (var k = 1; k < n; k++) { out.push((centers[k - 1] + centers[k]) / 2); }
    out.push(centers[n - 1] + (centers[n - 1] - centers[n - 2]) / 2);
    return out;
  }

  /* ---- reading the drawn figure ----------------------------------------------------------------------- */

  /* "x2" to "xaxis2": an axis id of a trace or reference to its layout name. */
  function axisName(id) {
    return id.charAt(0) + "axis" + id.slice(1);
  }

  function axisOf(plot, id) {
    return plot._fullLayout[axisName(id)];
  }

  /* The SVG group Plotly drew for each trace, found through the calcdata d3 bound to it. */
  function traceGroups(plot) {
    var groups = {};
    Array.prototype.forEach.call(plot.querySelectorAll("g.trace, g.hm"), function (node) {
      var bound = node.__data__;
      var cd = Array.isArray(bound) ? bound : null;
      if (cd && cd[0] && cd[0].trace && !(cd[0].trace.index in groups)) {
        groups[cd[0].trace.index] = node;
      }
    });
    return groups;
  }

  function children(node, selector) {
    return Array.prototype.slice.call(node.querySelectorAll(selector));
  }

  /* Plotly's later redraws join new data onto the elements through d3 and read what each was bound to. */
  function copyBoundData(from, to) {
    to.__data__ = from.__data__;
    for (var k = 0; k < from.children.length && k < to.children.length; k++) {
      copyBoundData(from.children[k], to.children[k]);
    }
  }

  /* Grow or shrink `elements` (siblings in the SVG) to `count`, cloning the last; null if there is none. */
  function resize(elements, count) {
    if (elements.length === 0) { return count === 0 ? elements : null; }
    while (elements.length > count) { elements.pop().remove(); }
    while (elements.length < count) {
      var last = elements[elements.length - 1];
      var copy = last.cloneNode(true);
      copyBoundData(last, copy);
      last.parentNode.insertBefore(copy, last.nextSibling);
      elements.push(copy);
    }
    return elements;
  }

  /* The sum of the translate(x,y) steps of an SVG transform (Plotly chains several on tick labels). */
  function translation(transform) {
    var total = [0, 0];
    String(transform || "").replace(/translate\(([-\d.e]+)[ ,]*([-\d.e]*)\)/g, function (_, x, y) {
      total[0] += Number(x);
      total[1] += Number(y || 0);
      return "";
    });
    return total;
  }

  /* ---- labels ------------------------------------------------------------------------------------------ */

  /* Plotly writes its pseudo-HTML labels (<b>, <br>, <sup>...) as tspans; a power of ten is
     "10\u200b<tspan font-size 70% dy -0.6em>k</tspan><tspan dy 0.42em>\u200b</tspan>". */
  function tagsOf(label) {
    return (String(label).match(/<[^>]*>/g) || []).join("");
  }

  function labelText(label) {
    return label === null || label === undefined ? "" : String(label);
  }

  /* How `label` can be written into `element`: "plain", "power", "same" (the markup `element` already
     holds, with other words), or null. */
  function labelShape(label, element) {
    label = labelText(label);
    if (label.indexOf("<") < 0 && label.indexOf("&") < 0) { return "plain"; }
    if (/^[^<&]*<sup>[^<&]*<\/sup>$/.test(label)) { return "power"; }
    var old = element ? element.getAttribute("data-unformatted") : null;
    if (old === null || tagsOf(old) !== tagsOf(label) || label.indexOf("&") >= 0) { return null; }
    var oldWords = old.split(/<[^>]*>/);
    var newWords = label.split(/<[^>]*>/);
    var aligned = oldWords.every(function (word, k) { return (word === "") === (newWords[k] === ""); });
    return aligned ? "same" : null;
  }

  /* Plotly's power of ten "10<sup>k</sup>": its base and exponent, or null. The exponent is written at
     POWER_SIZE of the font, raised by POWER_RISE of its own size. */
  var POWER_SIZE = 0.7;
  var POWER_RISE = 0.6;
  function powerParts(label) {
    return /^([^<]*)<sup>([^<]*)<\/sup>$/.exec(label);
  }

  function setLabel(element, label) {
    label = labelText(label);
    if (element.getAttribute("data-unformatted") === label) { return; }
    var shape = labelShape(label, element);
    if (shape === "plain") {
      element.textContent = label;
    } else if (shape === "power") {
      var parts = powerParts(label);
      var namespace = "http://www.w3.org/2000/svg";
      element.textContent = parts[1] + "\u200b";
      var exponent = document.createElementNS(namespace, "tspan");
      exponent.setAttribute("style", "font-size:" + POWER_SIZE * 100 + "%");
      exponent.setAttribute("dy", -POWER_RISE + "em");
      exponent.textContent = parts[2];
      var back = document.createElementNS(namespace, "tspan");
      back.setAttribute("dy", "0.42em");
      back.textContent = "\u200b";
      element.appendChild(exponent);
      element.appendChild(back);
    } else {
      var words = label.split(/<[^>]*>/).filter(function (word) { return word !== ""; });
      var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      var nodes = [];
      while (walker.nextNode()) {
        if (walker.currentNode.data.replace(/\u200b/g, "") !== "") { nodes.push(walker.currentNode); }
      }
      nodes.forEach(function (node, k) {
        var text = k < words.length ? words[k] + (/\u200b$/.test(node.data) ? "\u200b" : "") : node.data;
        if (node.data !== text) { node.data = text; }
      });
    }
    element.setAttribute("data-unformatted", label);
  }

  /* ---- colour bars ------------------------------------------------------------------------------------ */

  var measuring = null;  // a 2D context on a canvas never put on the page: it takes a font without a restyle
  var measuringFont = null;

  /* The width of a line of plain text in a canvas font: the advances chromium lays out in SVG too. */
  function textWidth(text, font) {
    if (!measuring) { measuring = document.createElement("canvas").getContext("2d"); }
    if (measuringFont !== font) {
      measuring.font = font;
      measuringFont = font;
    }
    return measuring.measureText(text).width;
  }

  /* A line of plain text's box about its anchor on the baseline: width, and the font's ascent and descent
     (the box chromium gives an SVG text). */
  function textBox(text, font) {
    textWidth("", font);
    var metrics = measuring.measureText(text);
    return { width: metrics.width, ascent: metrics.fontBoundingBoxAscent, descent: metrics.fontBoundingBoxDescent };
  }

  /* The width of the widest of the tick labels `labels` in `font` (0 for none); null if one is more than
     plain text (a superscript, markup). */
  function widestLabel(labels, font) {
    var widest = 0;
    for (var k = 0; k < labels.length; k++) {
      var label = labelText(labels[k]);
      if (labelShape(label, null) !== "plain") { return null; }
      widest = Math.max(widest, textWidth(label, font));
    }
    return widest;
  }

  /* Whether Plotly lays the figure out as before when the widest tick label of its vertical colour bar gets
     `change` pixels wider (narrower if negative; NaN if not known).

     Plotly makes the bar as wide as its pads, border, thickness and outline plus its column of labels, or
     as its title if that is wider, and widens the figure's margin when the bar and a pad beside it would not
     fit in the figure (it narrows the margin again when they would). `bar` holds what Plotly last laid out:
     `outer`, the bar's width; `column`, the width of its column of labels (null for labels inside the bar,
     which take no width); `fixed`, the rest of its width (2 xpad + borderwidth + thickness + outlinewidth);
     `titleBeside`, a title to the right of the labels (Plotly moves it clear of them); `room`, the pixels
     left between the bar's pad and the figure's edge, or null when something on screen follows the bar's
     width (a background or border, an anchor other than its left side, a place or size not in plot pixels).
     A bar whose width does not change keeps the layout; one whose width changes, only if it leaves room at
     its widest, so that it does not set the margin before or after. */
  function colorbarKeepsLayout(bar, change) {
    if (bar.column === null) { return true; }
    if (!isNumber(change)) { return false; }
    if (Math.abs(change) <= SAME_WIDTH) { return true; }
    if (bar.titleBeside) { return false; }
    // A title wider than the column of labels keeps the bar's width while the column stays narrower.
    var spare = bar.outer - bar.fixed - bar.column;
    if (spare > SAME_WIDTH && change <= spare - SAME_WIDTH) { return true; }
    return bar.room !== null && bar.room - Math.max(change, 0) >= COLORBAR_ROOM;
  }

  /* ---- the drawer ------------------------------------------------------------------------------------- */

  /**
   * Create a direct drawer for one figure.
   *
   * `drawn(updates)` must be called after every Plotly drawing, with the trace updates (one {path: value}
   * object per trace, values resolved) Plotly drew on top of `figure`. `apply(updates)` then draws further
   * updates directly if it can and returns true, or returns false having touched nothing.
   */
  function create(plot, figure) {
    var initial = figure.data.map(function (trace) { return flatten(trace); });
    var shown = null;  // per trace, {path: value} of what is on screen
    var base = null;  // positions and angles as Plotly last drew them
    var canvases = window.RopeVizCanvas ? window.RopeVizCanvas.layers() : null;

    function flatten(trace) {
      var flat = {};
      (function walk(value, prefix) {
        Object.keys(value).forEach(function (key) {
          var item = value[key];
          var path = prefix ? prefix + "." + key : key;
          if (item && typeof item === "object" && !Array.isArray(item)) {
            walk(item, path);
          } else {
            flat[path] = item;
          }
        });
      })(trace, "");
      return flat;
    }

    function value(update, index, path) {
      return path in update ? update[path] : shown[index][path];
    }

    /* Axis ranges: those on screen, and those of the step being planned (Plotly's range convention: powers
       of ten on a log axis). */
    var shownRanges = {};
    var ranges = {};

    function linearToPixel(id) {
      return axisPixel(id.charAt(0), ranges[axisName(id)], axisOf(plot, id)._length);
    }

    function toPixel(id) {
      return dataToPixel(axisOf(plot, id).type, linearToPixel(id));
    }

    function pixels(full, update, index) {
      var xPixel = toPixel(full.xaxis);
      var yPixel = toPixel(full.yaxis);
      var xs = value(update, index, "x");
      var ys = value(update, index, "y");
      if (!Array.isArray(xs) || !Array.isArray(ys)) { return null; }
      return xs.map(function (x, k) {
        var y = ys[k];
        if (x === null || y === null || x === undefined || y === undefined) { return null; }
        var px = xPixel(x);
        var py = yPixel(y);
        return isNumber(px) && isNumber(py) ? [px, py] : null;
      });
    }

    /* Whether a point (in px of its subplot) lies within the ranges of its axes. */
    function inside(full, point) {
      var xaxis = axisOf(plot, full.xaxis);
      var yaxis = axisOf(plot, full.yaxis);
      var slack = 1e-6;
      return point[0] >= -slack && point[0] <= xaxis._length + slack &&
        point[1] >= -slack && point[1] <= yaxis._length + slack;
    }

    /* The `display` attribute Plotly gives a marker or a label's group: in a subplot that holds a trace
       drawn over its axes' edges (cliponaxis: false) the plot area is not clipped, and Plotly hides every
       marker and label whose point lies outside the axes' ranges ("none"); in any other subplot the clip
       cuts them and Plotly sets nothing (null). */
    function displayOf(full, point) {
      var subplot = plot._fullLayout._plots[full.xaxis + full.yaxis];
      return subplot && subplot.layerClipId && !inside(full, point) ? "none" : null;
    }

    /* An axis that Plotly autoranges may move when the data it spans change; then Plotly must redraw. */
    function axesFixed(full, update) {
      var sized = "marker.size" in update;
      var xFixed = !axisOf(plot, full.xaxis).autorange || !("x" in update || sized);
      var yFixed = !axisOf(plot, full.yaxis).autorange || !("y" in update || sized);
      return xFixed && yFixed;
    }

    function same(a, b) {
      return a === b || JSON.stringify(a) === JSON.stringify(b);
    }

    function onlyKeys(update, allowed) {
      return Object.keys(update).every(function (path) { return allowed.indexOf(path) >= 0; });
    }

    /* ---- scatter ---- */

    function planScatter(full, update, index, group) {
      if (!onlyKeys(update, SCATTER_KEYS) || !axesFixed(full, update)) { return null; }
      var mode = full.mode || "";
      var points = pixels(full, update, index);
      if (!points) { return null; }
      var valid = points.filter(Boolean);
      var steps = [];
      if (mode.indexOf("lines") >= 0) {
        if (full.line.shape !== "linear") { return null; }
        var pieces = segments(points).filter(function (piece) { return piece.length > 1; });
        var lines = children(group, "g.lines path.js-line");
        var lineLayer = group.querySelector("g.lines");
        var lineTemplate = lines.length === 0 && pieces.length > 0 ?
          lineTemplates[index] || legendPart(index, "g.legendlines path.js-line") : null;
        if (lines.length === 0 && pieces.length > 0 && (!lineTemplate || !lineLayer)) { return null; }
        steps.push(function () {
          if (lineTemplate) { grow(lines, pieces.length, lineTemplate, lineLayer); } else { resize(lines, pieces.length); }
          pieces.forEach(function (piece, k) { setAttribute(lines[k], "d", pathOf(piece)); });
        });
      }
      if ("line.color" in update) {
        var recolor = planLineColor(full, update, index, group);
        if (!recolor) { return null; }
        steps.push(recolor);
      }
      if (full.fill && full.fill !== "none") {
        if (full.fill !== "toself") { return null; }
        var fill = group.querySelector("g.fills path.js-fill");
        if (!fill) { return null; }
        var closed = segments(points).map(function (piece) { return pathOf(piece) + "Z"; }).join("");
        steps.push(function () { setAttribute(fill, "d", closed); });
      }
      if (mode.indexOf("markers") >= 0) {
        var marker = planMarkers(full, update, index, group, points, valid);
        if (!marker) { return null; }
        steps.push(marker);
      }
      if (mode.indexOf("text") >= 0) {
        var text = planText(full, update, index, group, points, valid);
        if (!text) { return null; }
        steps.push(text);
      }
      return steps;
    }

    /* A new colour for the line of a trace drawn as lines alone, on the plot and in its legend entry, as
       Plotly strokes it (its rgb() and the alpha as stroke-opacity). Markers, text and fills take their
       default colours from the line's, so a trace with any of them is left to Plotly. Runs after the step
       that draws the line's pieces, so that new pieces get the colour too. */
    function planLineColor(full, update, index, group) {
      var color = update["line.color"];
      if (full.mode !== "lines" || (full.fill && full.fill !== "none") || typeof color !== "string") { return null; }
      var rgba = parseColor(color);
      if (rgba.length !== 4 || !rgba.every(isNumber)) { return null; }
      var legendLine = legendPart(index, "g.legendlines path.js-line");
      if (full.showlegend && plot._fullLayout.showlegend && !legendLine) { return null; }
      var stroke = cssColor(rgba);
      var opacity = String(rgba[3]);
      return function () {
        children(group, "g.lines path.js-line").concat(legendLine ? [legendLine] : []).forEach(function (line) {
          setStyle(line, "stroke", stroke);
          setStyle(line, "strokeOpacity", opacity);
        });
      };
    }

    function planMarkers(full, update, index, group, points, valid) {
      var elements = children(group, "g.points path.point");
      // New markers are copies of the last one: their symbol must be the same, and per-point sizes and
      // colours are then written to every marker.
      var recount = elements.length !== valid.length;
      var container = group.querySelector("g.points");
      var template = elements.length === 0 && valid.length > 0 ? markerTemplate(index, full) : null;
      if (recount && (Array.isArray(full.marker.symbol) || (elements.length === 0 && (!template || !container)))) {
        return null;
      }
      var rotate = full.marker.angleref === "previous";
      if (rotate && recount) { return null; }
      var sizes = null;
      if ("marker.size" in update || (recount && Array.isArray(value(update, index, "marker.size")))) {
        var symbols = [].concat(full.marker.symbol);
        if (symbols.some(function (symbol) { return symbol !== "circle" && symbol !== 0; })) { return null; }
        sizes = value(update, index, "marker.size");
      }
      var colors = null;
      if ("marker.color" in update || "marker.cmax" in update ||
          (recount && Array.isArray(value(update, index, "marker.color")))) {
        if (full.marker.showscale && ("marker.cmax" in update || "marker.cmin" in update || full.marker.cauto)) {
          return null;
        }
        var raw = value(update, index, "marker.color");
        if (Array.isArray(raw) && raw.every(function (c) { return isNumber(c) || c === null; })) {
          var stops = full.marker.colorscale;
          if (!Array.isArray(stops)) { return null; }
          var low = value(update, index, "marker.cmin");
          var high = value(update, index, "marker.cmax");
          var range = extent(raw);
          var scale = colorScale(stops, isNumber(low) ? low : range[0], isNumber(high) ? high : range[1]);
          colors = raw.map(function (c) { var rgba = scale(c); return rgba ? cssColor(rgba) : null; });
        } else if (Array.isArray(raw) || typeof raw === "string") {
          colors = raw;
        } else {
          return null;
        }
      }
      var example = elements[0] || template;
      var canvasStep = planMarkersOnCanvas(full, index, group, points, valid, example, sizes, colors);
      if (canvasStep) { return canvasStep; }
      var angles = rotate ? markerAngles(points) : null;
      return function () {
        if (canvases) { canvases.remove("markers " + index); }
        var shownElements = template ? grow(elements, valid.length, template, container) :
          resize(elements, valid.length);
        var drawnAngles = rotate ? base.angles[index] : null;
        var k = 0;
        points.forEach(function (point, n) {
          if (!point) { return; }
          var element = shownElements[k];
          var transform = "translate(" + round2(point[0]) + "," + round2(point[1]) + ")";
          if (rotate && isNumber(angles[n]) && isNumber(drawnAngles[n])) {
            transform += " rotate(" + round2(angles[n] - drawnAngles[n]) + ")";
          }
          setAttribute(element, "transform", transform);
          setOrRemove(element, "display", displayOf(full, point));
          if (sizes) {
            setAttribute(element, "d", circlePath(Array.isArray(sizes) ? sizes[n] : sizes));
          }
          if (colors) {
            var color = Array.isArray(colors) ? colors[n] : colors;
            if (color) { setStyle(element, "fill", color); }
          }
          k++;
        });
      };
    }

    /* Many markers of one symbol and style are painted on a canvas layer (see rope-viz-canvas.js), with
       the colours and sizes of this step; null if they are too few, or if their style is not one a canvas
       paints the same way. */
    function planMarkersOnCanvas(full, index, group, points, valid, example, sizes, colors) {
      var marker = full.marker;
      var line = marker.line || {};
      var container = group.querySelector("g.points");
      var perPoint = [marker.symbol, marker.opacity, line.color, line.width].some(Array.isArray) ||
        (Array.isArray(marker.color) && !colors) || (Array.isArray(marker.size) && !sizes);
      if (!canvases || valid.length < CANVAS_MARKERS || !example || !container || perPoint ||
          full.cliponaxis === false || marker.angleref === "previous") {
        return null;
      }
      var paint = window.RopeVizCanvas.markerStyle(example);
      var symbol = example.getAttribute("d");
      if (!paint || !symbol) { return null; }
      var xaxis = axisOf(plot, full.xaxis);
      var yaxis = axisOf(plot, full.yaxis);
      var box = { x: 0, y: 0, width: xaxis._length, height: yaxis._length };
      return function () {
        var drawing = canvases.context("markers " + index, group, container.nextSibling, box, [container]);
        points.forEach(function (point, n) {
          if (!point || !inside(full, point)) { return; }
          var d = sizes ? circlePath(Array.isArray(sizes) ? sizes[n] : sizes) : symbol;
          var color = colors ? (Array.isArray(colors) ? colors[n] : colors) : null;
          window.RopeVizCanvas.drawMarker(drawing, d, point[0], point[1], paint, color);
        });
      };
    }

    /* Plotly's circle marker of diameter `size`. */
    function circlePath(size) {
      var r = round2(size / 2);
      return "M" + r + ",0A" + r + "," + r + " 0 1,1 0,-" + r + "A" + r + "," + r + " 0 0,1 " + r + ",0Z";
    }

    /* Direction of each point from the previous one, in degrees on screen (for angleref "previous"). */
    function markerAngles(points) {
      return points.map(function (point, n) {
        var previous = n > 0 ? points[n - 1] : null;
        if (!point || !previous) { return NaN; }
        return Math.atan2(point[1] - previous[1], point[0] - previous[0]) * 180 / Math.PI;
      });
    }

    /* Labels keep the offset from their point that Plotly gave them (it depends on the text position and
       the marker size, both fixed here), so a label moves with its point. */
    function planText(full, update, index, group, points, valid) {
      var slots = children(group, "g.text g.textpoint");
      var offset = base.textOffsets[index];
      if (!offset || Array.isArray(full.textposition) || Array.isArray(full.marker && full.marker.size)) {
        return null;
      }
      var texts = value(update, index, "text");
      var labels = Array.isArray(texts) ? texts : points.map(function () { return texts; });
      var plain = labels.every(function (label) { return labelShape(label, null) === "plain"; });
      var textLayer = group.querySelector("g.text");
      if (!plain || (slots.length === 0 && (!slotTemplates[index] || !textLayer))) { return null; }
      // Plotly leaves the slot of an empty label without a <text>; a label cannot appear there. New slots
      // are copies of the last one.
      var template = textTemplates[index];
      var writable = slots.every(function (slot) {
        var element = slot.querySelector("text");
        return !element || element.childElementCount === 0;
      });
      if (!writable || !template) { return null; }
      return function () {
        var slot = 0;
        var shownSlots = grow(slots, valid.length, slotTemplates[index], textLayer);
        points.forEach(function (point, n) {
          if (!point) { return; }
          var holder = shownSlots[slot++];
          var element = holder.querySelector("text");
          if (!element) {
            if (labelText(labels[n]) === "") { return; }
            element = template.cloneNode(true);
            element.__data__ = holder.__data__;
            holder.appendChild(element);
          }
          setAttribute(element, "x", round2(point[0] + offset[0]));
          setAttribute(element, "y", round2(point[1] + offset[1]));
          setOrRemove(element.parentNode, "display", displayOf(full, point));
          if (element.getAttribute("data-unformatted") !== labelText(labels[n])) {
            element.textContent = labelText(labels[n]);
            element.setAttribute("data-unformatted", labelText(labels[n]));
          }
        });
      };
    }

    /* ---- bars ---- */

    function planBars(full, update, index, group) {
      if (!onlyKeys(update, BAR_KEYS) || !axesFixed(full, update) || full.orientation !== "v") { return null; }
      if (full.base !== undefined && full.base !== null) { return null; }
      if (full.textposition && full.textposition !== "none" && full.text !== undefined && full.text !== "") {
        return null;
      }
      var ys = value(update, index, "y");
      var paths = children(group, "g.point path");
      if (paths.length !== ys.length) { return null; }
      var shapes = paths.map(function (path) {
        return /^M([-\d.e]+),([-\d.e]+)V([-\d.e]+)H([-\d.e]+)V([-\d.e]+)Z$/.exec(path.getAttribute("d"));
      });
      if (shapes.some(function (shape) { return !shape; })) { return null; }
      var yPixel = toPixel(full.yaxis);
      var zero = yPixel(0);
      return [function () {
        paths.forEach(function (path, k) {
          var shape = shapes[k];
          var top = isNumber(ys[k]) ? round2(yPixel(ys[k])) : round2(zero);
          setAttribute(path, "d", "M" + shape[1] + "," + round2(zero) + "V" + top + "H" + shape[4] + "V" +
            round2(zero) + "Z");
        });
      }];
    }

    /* ---- heatmaps ---- */

    // Per heatmap trace with a colour bar, what Plotly last laid out of it (readColorbar).
    var colorbars = {};

    function colorbarLabels(bar) {
      return children(bar, "g.cbaxis g").filter(function (node) {
        return /tick$/.test(node.getAttribute("class"));
      });
    }

    /* What Plotly laid out of the colour bar of trace `full`, as colorbarKeepsLayout reads it, with the font
       and the width of the widest of its labels; null for a bar that is not vertical, or has no labels to
       take the font of. Read with the drawing, before any step moves the labels. The width of their column
       is Plotly's own measure, the box of their group: it makes chromium lay the page out if anything
       changed since it last did (once a drawing, when the page is idle). A plot that is not laid out (in a
       hidden panel, a tab in the background) gives an empty box: such a bar is read again when a step
       needs it (colorbarOf). */
    function readColorbar(full) {
      var spec = full.colorbar;
      var bar = plot.querySelector("g.cb" + full.uid);
      var background = bar ? bar.querySelector("rect.cbbg") : null;
      var axis = bar ? bar.querySelector("g.cbaxis") : null;
      var labels = bar ? colorbarLabels(bar) : [];
      var texts = labels.map(function (node) { return node.querySelector("text"); });
      if (!spec || spec.orientation !== "v" || !background || !axis || !texts.length || !texts[0]) {
        return null;
      }
      var paint = window.RopeVizCanvas.textStyle(texts[0]);
      var style = texts[0].style;
      // A canvas measures neither text-transform nor a font variant.
      var measurable = paint && (!style.textTransform || style.textTransform === "none") &&
        (!style.fontVariant || style.fontVariant === "normal");
      var inside = String(spec.ticklabelposition).indexOf("inside") >= 0;
      var column = inside ? null : axis.getBBox().width;
      var outer = Number(background.getAttribute("width"));
      if (!measurable || !isNumber(outer)) { return null; }
      if (column !== null && !(column > 0)) { return { unread: true }; }
      var layout = plot._fullLayout;
      var size = layout._size;
      var margin = layout.margin;
      var thickness = Math.round(spec.thickness * (spec.thicknessmode === "fraction" ? size.w : 1));
      var pad = Math.min(12, margin.l, margin.r, margin.t, margin.b);
      var unseen = spec.borderwidth === 0 && parseColor(spec.bgcolor)[3] === 0;
      var placed = spec.xanchor === "left" && spec.thicknessmode === "pixels" && spec.xref === "paper" &&
        spec.yref === "paper";
      var room = margin.autoexpand === false ? Infinity :
        layout.width - (size.l + spec.x * size.w + outer + pad);
      var words = texts.map(function (text) { return text.getAttribute("data-unformatted"); });
      return {
        font: paint.font,
        widest: widestLabel(words, paint.font),
        outer: outer,
        column: column,
        fixed: 2 * spec.xpad + spec.borderwidth + thickness + spec.outlinewidth,
        titleBeside: spec.title.side === "right",
        room: unseen && placed ? room : null
      };
    }

    /* What Plotly laid out of trace `index`'s colour bar, read again if it was read with an empty box: no
       step has moved its labels since (a step that would is left to Plotly). */
    function colorbarOf(full, index) {
      if (colorbars[index] && colorbars[index].unread) { colorbars[index] = readColorbar(full); }
      return colorbars[index];
    }

    /* A colour bar whose range changes: its labels move along the bar (explicit ticks, written at build
       time). Where the bar lies is read off the labels Plotly drew: two of them fix it. Plotly sizes the bar
       by its widest label and may move the figure's margin with it, which is beyond a step drawn here: a
       step whose labels would change what Plotly lays out is left to Plotly (colorbarKeepsLayout). */
    function planColorbar(full, update, index, low, high) {
      var bar = plot.querySelector("g.cb" + full.uid);
      var laidOut = colorbarOf(full, index);
      var values = value(update, index, "colorbar.tickvals");
      var texts = value(update, index, "colorbar.ticktext");
      if (!bar || !laidOut || laidOut.unread || !Array.isArray(values) || !Array.isArray(texts) ||
        !isNumber(low) || !isNumber(high)) {
        return null;
      }
      var labels = colorbarLabels(bar);
      var oldLow = Number(shown[index].zmin);
      var oldHigh = Number(shown[index].zmax);
      var known = labels.map(function (node) {
        var text = node.querySelector("text");
        var number = Number(String(text.getAttribute("data-unformatted")).replace("\u2212", "-"));
        return { fraction: (number - oldLow) / (oldHigh - oldLow), at: translation(text.getAttribute("transform"))[1] };
      }).filter(function (label) { return isNumber(label.fraction) && isNumber(label.at); });
      if (known.length < 2 || known[0].fraction === known[known.length - 1].fraction) { return null; }
      var a = known[0];
      var b = known[known.length - 1];
      var length = (a.at - b.at) / (b.fraction - a.fraction);
      var bottom = a.at + a.fraction * length;
      var ticks = [];
      values.forEach(function (v, k) {
        if (v >= Math.min(low, high) - 1e-9 && v <= Math.max(low, high) + 1e-9) {
          ticks.push({ at: bottom - (v - low) / (high - low) * length, text: texts[k] });
        }
      });
      if (ticks.some(function (tick) { return labelShape(tick.text, null) === null; })) { return null; }
      var widest = laidOut.widest === null ? null :
        widestLabel(ticks.map(function (tick) { return tick.text; }), laidOut.font);
      if (!colorbarKeepsLayout(laidOut, widest === null ? NaN : widest - laidOut.widest)) { return null; }
      return function () {
        resize(labels, ticks.length).forEach(function (node, k) {
          var text = node.querySelector("text");
          setAttribute(text, "transform", "translate(0," + round2(ticks[k].at) + ")");
          setLabel(text, ticks[k].text);
        });
      };
    }

    // The image of heatmap cells last painted on each canvas layer, written again at the next step.
    var cellImages = new WeakMap();

    function planHeatmap(full, update, index, group) {
      if (!onlyKeys(update, HEATMAP_KEYS) || !axesFixed(full, update) || full.zsmooth || full.transpose) {
        return null;
      }
      // Numbers in the cells: only a fixed-point texttemplate, in Plotly's contrast colours.
      var cellLabels = children(group, "g.heatmap-label text");
      var template = /^%\{z:\.(\d+)f\}$/.exec(full.texttemplate || "");
      var autoColor = !full.textfont.color || full.textfont.color === "auto";
      if ((full.texttemplate || cellLabels.length) && (!template || Array.isArray(full.textfont.color))) {
        return null;
      }
      var image = group.querySelector("image");
      var z = value(update, index, "z");
      var opaque = Number(image && image.style.opacity || 1) === 1;
      if (!image || !Array.isArray(z) || !Array.isArray(z[0]) || !canvases || !opaque) {
        return null;
      }
      var rows = z.length;
      var columns = z[0].length;
      var xs = value(update, index, "x");
      var ys = value(update, index, "y");
      var xaxis = axisOf(plot, full.xaxis);
      var yaxis = axisOf(plot, full.yaxis);
      if (xaxis.type === "category" || yaxis.type === "category") { return null; }
      var xCenters = Array.isArray(xs) ? xs : z[0].map(function (_, k) { return full.x0 + k * full.dx; });
      var yCenters = Array.isArray(ys) ? ys : z.map(function (_, k) { return full.y0 + k * full.dy; });
      if (xCenters.length !== columns || yCenters.length !== rows) { return null; }
      if (template && cellLabels.length !== rows * columns) { return null; }
      var left = Number(image.getAttribute("x"));
      var top = Number(image.getAttribute("y"));
      var width = Number(image.getAttribute("width"));
      var height = Number(image.getAttribute("height"));
      var xEdges = edges(xCenters).map(function (v) { return toPixel(full.xaxis)(v) - left; });
      var yEdges = edges(yCenters).map(function (v) { return toPixel(full.yaxis)(v) - top; });
      // The cells may move with their axes (a window sliding along the positions), and their number change
      // with the axis range (a column per layer of each model), only if the image keeps its place on screen.
      function covers(pixels, size, length, start) {
        var low = Math.max(0, Math.min.apply(null, pixels) + start);
        var high = Math.min(length, Math.max.apply(null, pixels) + start);
        return Math.abs(low - start) <= 0.5 && Math.abs(high - low - size) <= 1;
      }
      if (!covers(xEdges, width, xaxis._length, left) || !covers(yEdges, height, yaxis._length, top)) {
        return null;
      }
      var range = extent(z);
      var low = value(update, index, "zmin");
      var high = value(update, index, "zmax");
      var stops = full.colorscale;
      if (full.coloraxis) {
        // A shared colour axis: its colours and fixed range (an automatic one spans every trace on it).
        var shared = plot._fullLayout[full.coloraxis];
        if (!shared || shared.cauto || shared.showscale && ("zmin" in update || "zmax" in update)) { return null; }
        stops = shared.colorscale;
        low = shared.cmin;
        high = shared.cmax;
      } else if (full.showscale && full.zauto) {
        return null;
      }
      var colorbarStep = null;
      if (!full.coloraxis && full.showscale && ("zmin" in update || "zmax" in update)) {
        colorbarStep = planColorbar(full, update, index, low, high);
        if (!colorbarStep) { return null; }
      }
      if (!Array.isArray(stops)) { return null; }
      var scale = colorScale(stops, isNumber(low) ? low : range[0], isNumber(high) ? high : range[1]);
      var xGap = full.xgap || 0;
      var yGap = full.ygap || 0;
      // Cells and numbers are painted on a canvas over the image (see rope-viz-canvas.js): no image to
      // encode, and no text to lay out.
      var labelPaint = template ? window.RopeVizCanvas.textStyle(cellLabels[0]) : null;
      var labelLines = labelPaint ? cellLabels.map(function (label) {
        return window.RopeVizCanvas.textLines(label, labelPaint.size);
      }) : [];
      var oneLine = labelLines.every(function (lines) { return lines && lines.length === 1; });
      if (template && (!labelPaint || !oneLine)) {
        return null;
      }
      var covered = [image].concat(children(group, "g.heatmap-label"));
      var box = { x: left, y: top, width: width, height: height };
      return [function () {
        var drawing = canvases.context("heatmap " + index, group, null, box, covered);
        // Written pixel by pixel into one image, kept from step to step: a fillRect per cell costs several
        // microseconds each. A row of cells is written on its first line of pixels, which is then copied
        // to the row's other lines.
        var canvas = drawing.canvas;
        var ratio = canvas.width / box.width;
        var image = cellImages.get(canvas);
        if (!image || image.width !== canvas.width || image.height !== canvas.height) {
          image = drawing.createImageData(canvas.width, canvas.height);
          cellImages.set(canvas, image);
        }
        var words = new Uint32Array(image.data.buffer);
        var width = canvas.width;
        words.fill(0);
        function device(pixel, size) { return Math.min(size, Math.max(0, Math.round(pixel * ratio))); }
        for (var row = 0; row < rows; row++) {
          // As Plotly: whole-pixel bricks, the gap taken from their far side.
          var y0 = Math.round(Math.min(yEdges[row], yEdges[row + 1])) + Math.floor(yGap / 2);
          var y1 = Math.round(Math.max(yEdges[row], yEdges[row + 1])) - Math.ceil(yGap / 2);
          var rowStart = device(y0, canvas.height);
          var rowEnd = device(y1, canvas.height);
          if (rowEnd <= rowStart) { continue; }
          var first = rowStart * width;
          for (var column = 0; column < columns; column++) {
            var word = pixelWord(scale(z[row][column]));
            if (word === 0) { continue; }
            var x0 = Math.round(Math.min(xEdges[column], xEdges[column + 1])) + Math.floor(xGap / 2);
            var x1 = Math.round(Math.max(xEdges[column], xEdges[column + 1])) - Math.ceil(xGap / 2);
            words.fill(word, first + device(x0, width), first + device(x1, width));
          }
          for (var line = rowStart + 1; line < rowEnd; line++) {
            words.copyWithin(line * width, first, first + width);
          }
        }
        drawing.putImageData(image, 0, 0);
        if (template) {
          var digits = Number(template[1]);
          cellLabels.forEach(function (label, k) {
            var cell = z[Math.floor(k / columns)][k % columns];
            if (!isNumber(cell)) { return; }
            var rgba = scale(cell);
            window.RopeVizCanvas.drawText(drawing, labelLines[k], [cell.toFixed(digits)], labelPaint,
              rgba && autoColor ? contrast(rgba) : null);
          });
        }
        if (colorbarStep) { colorbarStep(); }
      }];
    }

    /* ---- axes, shapes and annotations ---- */

    var shownLayout = {};
    // A label's offset from its point, and a label, marker or line to copy, per trace: kept from the last
    // drawing that had one, for labels, markers and lines that appear on a trace that had none.
    var textOffsets = [];
    var textTemplates = [];
    var slotTemplates = [];
    var markerTemplates = [];
    var lineTemplates = [];

    /* The element matching `selector` in the legend entry of trace `index`: Plotly draws it with the trace's
       own style. */
    function legendPart(index, selector) {
      var item = children(plot, "g.legend g.traces").filter(function (node) {
        var first = Array.isArray(node.__data__) ? node.__data__[0] : null;
        var trace = first && (first.trace || (first[0] && first[0].trace));
        return Boolean(trace) && trace.index === index;
      })[0];
      return item ? item.querySelector(selector) : null;
    }

    /* A marker to copy for a trace that shows none now: one Plotly drew earlier, or its legend symbol
       (drawn with the same symbol, size and colour up to the legend's size cap). */
    function markerTemplate(index, full) {
      if (markerTemplates[index]) { return markerTemplates[index]; }
      var symbol = legendPart(index, "path.scatterpts");
      if (!symbol || full.marker.size > 16 || Array.isArray(full.marker.size)) { return null; }
      var copy = symbol.cloneNode(true);
      copy.setAttribute("class", "point");
      return copy;
    }

    /* Grow `elements` (possibly empty) to `count` inside `container`, copying `template` when empty. */
    function grow(elements, count, template, container) {
      if (elements.length === 0 && count > 0) {
        var first = template.cloneNode(true);
        container.appendChild(first);
        elements.push(first);
      }
      return resize(elements, count);
    }

    /* The plot's axes as fitHeld reads them, by name. */
    function heldAxes() {
      var held = {};
      Object.keys(plot._fullLayout).forEach(function (name) {
        if (/^[xy]axis\d*$/.test(name)) { held[name] = heldAxis(plot._fullLayout[name]); }
      });
      return held;
    }
    /* The axes that axis `name` is held to the scale of, or that are held to its scale. */
    function partners(held, name) {
      return Object.keys(held).filter(function (other) {
        return other === held[name].scaleanchor || held[other].scaleanchor === name;
      });
    }

    /* The range Plotly drew an axis with: the state's own, but for an axis held to another's scale, which
       Plotly may have widened (fitHeld). */
    function rangeOf(name) {
      var path = name + ".range";
      var held = heldAxes();
      var widened = held[name].constrain !== "domain" && partners(held, name).length > 0;
      var range = path in shownLayout && !widened ? shownLayout[path] : plot._fullLayout[name].range;
      return [Number(range[0]), Number(range[1])];
    }

    /* The ticks of an axis within its planned range, with their pixel positions. */
    function visibleTicks(name, tickArrays, axis) {
      var range = ranges[name];
      var low = Math.min(range[0], range[1]);
      var high = Math.max(range[0], range[1]);
      var slack = (high - low) * 1e-6;
      var linear = linearToPixel(axis._id);
      var log = axis.type === "log";
      var ticks = [];
      (tickArrays.values || []).forEach(function (v, k) {
        var l = log ? Math.log10(v) : Number(v);
        if (l >= low - slack && l <= high + slack) {
          ticks.push({ l: l, text: (tickArrays.texts || [])[k], pixel: linear(l) });
        }
      });
      return ticks;
    }

    function shownTickValues(name) {
      function shownValue(key) {
        var path = name + "." + key;
        return path in shownLayout ? shownLayout[path] : plot._fullLayout[name][key];
      }
      return { values: shownValue("tickvals"), texts: shownValue("ticktext") };
    }

    /* An axis whose range or ticks change: gridlines, zero line and tick labels move (the ticks are explicit
       on such axes, written at build time, so Plotly draws the same ones). */
    function planAxis(name, layout) {
      var axis = plot._fullLayout[name];
      if (!axis || axis.type === "category" || axis.type === "date" || axis.minor && axis.minor.showgrid) {
        return null;
      }
      var id = axis._id;
      var letter = id.charAt(0);
      var values = layout[name + ".tickvals"];
      var texts = layout[name + ".ticktext"];
      if (!Array.isArray(values) || !Array.isArray(texts)) { return null; }
      var range = ranges[name];
      var low = Math.min(range[0], range[1]);
      var high = Math.max(range[0], range[1]);
      var slack = (high - low) * 1e-6;
      var linear = linearToPixel(id);
      var log = axis.type === "log";
      var ticks = visibleTicks(name, { values: values, texts: texts }, axis);
      var zeroShown = axis.zeroline && !log && low < 0 && high > 0;
      var zero = plot.querySelector("path." + id + "zl");
      // A zero line that Plotly did not draw (0 was outside the range then) is drawn as the gridline at 0
      // where it looks like one (the site's themes give both the grid's colour).
      var zeroAsGrid = zeroShown && !zero && axis.showgrid && axis.zerolinecolor === axis.gridcolor &&
        axis.zerolinewidth === axis.gridwidth;
      var gridTicks = axis.showgrid ? ticks.filter(function (tick) {
        return zeroAsGrid || !(axis.zeroline && !log && Math.abs(tick.l) < slack + 1e-12);
      }) : [];
      var labels = axis.showticklabels ? children(plot, "g." + id + "tick") : [];
      var grid = children(plot, "path." + id + "grid");
      var marks = axis.ticks ? children(plot, "path." + id + "tick") : [];
      if (axis.ticks && marks.length === 0 && ticks.length > 0) { return null; }
      if (axis.showticklabels && labels.length === 0 && ticks.length > 0) { return null; }
      if (axis.showgrid && grid.length === 0 && gridTicks.length > 0) { return null; }
      if (zeroShown && !zero && !zeroAsGrid) { return null; }
      var drawable = !axis.showticklabels || ticks.every(function (tick, k) {
        var shape = labelShape(tick.text, null);
        return shape !== null || (ticks.length === labels.length &&
          labelShape(tick.text, labels[k].querySelector("text")) !== null);
      });
      if (!drawable) { return null; }
      function place(pixel, shift) {
        var at = round2(axis._offset + pixel + (shift || 0));
        return letter === "x" ? "translate(" + at + ",0)" : "translate(0," + at + ")";
      }
      // Plotly may set a label off its tick (a label of several lines on a y axis sits higher): keep that.
      var labelShift = 0;
      if (labels.length) {
        var before = ranges;
        ranges = shownRanges;
        var oldTicks = visibleTicks(name, shownTickValues(name), axis);
        ranges = before;
        var first = translation(labels[0].querySelector("text").getAttribute("transform"));
        if (oldTicks.length) {
          labelShift = first[letter === "x" ? 0 : 1] - (axis._offset + oldTicks[0].pixel);
        }
      }
      var placeTitle = planTitle(name, axis, ticks, labelShift);
      if (!placeTitle) { return null; }
      return function () {
        placeTitle();
        if (axis.showticklabels) {
          resize(labels, ticks.length).forEach(function (group, k) {
            var text = group.querySelector("text");
            setAttribute(text, "transform", place(ticks[k].pixel, labelShift));
            setLabel(text, ticks[k].text);
          });
        }
        if (axis.showgrid) {
          resize(grid, gridTicks.length).forEach(function (line, k) {
            setAttribute(line, "transform", place(gridTicks[k].pixel));
          });
        }
        if (axis.ticks) {
          resize(marks, ticks.length).forEach(function (mark, k) {
            setAttribute(mark, "transform", place(ticks[k].pixel));
          });
        }
        if (zero) {
          setStyle(zero, "display", zeroShown ? "" : "none");
          if (zeroShown) { setAttribute(zero, "transform", place(linear(0))); }
        }
      };
    }

    /* ---- y axis titles ---- */

    /* Plotly places a y axis's title beside its tick labels. With a title standoff it keeps the title that
       far from the labels' outer edge, so the title moves when the labels get wider or narrower. Without,
       the title has a place of its own, from which Plotly pushes it out ("scoots" it) just clear of any label
       it would overlap, by 2 px (0 px with a standoff), but not off the figure. The direct drawing moves the
       title by the same rules, from the labels' widths measured on a canvas. */
    var titles = {};  // per y axis, the title as Plotly placed it (readTitle)

    /* The boxes (left, right, top, bottom, in the figure's pixels) of tick labels with texts `words` and
       vertical places `places`, written like `example` (a label Plotly drew); null if one is more than a line
       of plain text or a power of ten. */
    function labelBoxes(example, words, places) {
      var paint = window.RopeVizCanvas.textStyle(example);
      if (!paint) { return null; }
      var size = paint.size;
      var font = paint.font;
      var small = font.replace(example.style.fontSize, round2(POWER_SIZE * size) + "px");
      var x = Number(example.getAttribute("x") || 0);
      var y = Number(example.getAttribute("y") || 0);
      var anchor = example.getAttribute("text-anchor") || "start";
      var boxes = [];
      for (var k = 0; k < words.length; k++) {
        var label = labelText(words[k]);
        var shape = labelShape(label, null);
        var power = shape === "power" ? powerParts(label) : null;
        if (shape !== "plain" && !power) { return null; }
        var box = textBox(power ? power[1] + "\u200b" : label, font);
        var width = box.width;
        var top = y - box.ascent;
        if (power) {
          var exponent = textBox(power[2], small);
          width += exponent.width;
          top = Math.min(top, y - POWER_RISE * POWER_SIZE * size - exponent.ascent);
        }
        var left = anchor === "end" ? x - width : anchor === "middle" ? x - width / 2 : x;
        boxes.push({ left: left, right: left + width, top: places[k] + top, bottom: places[k] + y + box.descent });
      }
      return boxes;
    }

    function labelsEdge(boxes, side) {
      return side === "left" ? Math.min.apply(null, boxes.map(function (box) { return box.left; })) :
        Math.max.apply(null, boxes.map(function (box) { return box.right; }));
    }

    /* A y axis's title and labels as Plotly drew them; null for an axis without both, or a title that is not
       turned a quarter about its anchor, or labels not measured here. A title with no box yet (the drawing was
       read before chromium laid the title out: seen once, on a loaded machine, where the title then moved to
       the plot's far side) is read again when a step needs it (titleOf). */
    function readTitle(name) {
      var axis = plot._fullLayout[name];
      var id = axis._id;
      var text = plot.querySelector("g.g-" + id + "title text." + id + "title");
      var labels = children(plot, "g." + id + "tick text");
      if (!text || !labels.length || !axis.showticklabels || (axis.side !== "left" && axis.side !== "right")) {
        return null;
      }
      var x = Number(text.getAttribute("x"));
      var y = Number(text.getAttribute("y"));
      var turn = /^rotate\(-90,([-\d.e]+),([-\d.e]+)\)$/.exec(text.getAttribute("transform") || "");
      if (!turn || Number(turn[1]) !== x || Number(turn[2]) !== y) { return null; }
      var boxes = labelBoxes(labels[0], labels.map(function (label) { return label.getAttribute("data-unformatted"); }),
        labels.map(function (label) { return translation(label.getAttribute("transform"))[1]; }));
      if (!boxes) { return null; }
      // The title's own box, turned: a quarter turn back about (x, y) maps (u, v) to (x + v - y, y - u + x).
      var own = text.getBBox();
      var reserved = { l: 0, r: 0 };
      var margins = plot._fullLayout._reservedMargin || {};
      Object.keys(margins).forEach(function (key) {
        reserved.l = Math.max(reserved.l, margins[key].l || 0);
        reserved.r = Math.max(reserved.r, margins[key].r || 0);
      });
      return {
        unread: !own.width && !own.height,
        text: text, example: labels[0], side: axis.side, x: x, y: y,
        standoff: Object.prototype.hasOwnProperty.call(axis.title, "standoff"),
        box: { left: x + own.y - y, right: x + own.y + own.height - y, top: y - own.x - own.width + x,
          bottom: y - own.x + x },
        edge: labelsEdge(boxes, axis.side),
        paperEdge: axis.side === "left" ? reserved.l : plot._fullLayout.width - reserved.r
      };
    }

    /* Place the title of axis `name` beside `ticks` (labels at `labelShift` off their ticks), as Plotly does:
       a step, or null if the labels are not measured here. */
    function titleOf(name) {
      if (titles[name] && titles[name].unread) { titles[name] = readTitle(name); }
      return titles[name];
    }

    function planTitle(name, axis, ticks, labelShift) {
      var title = titleOf(name);
      if (!title) { return function () {}; }
      var boxes = labelBoxes(title.example, ticks.map(function (tick) { return tick.text; }),
        ticks.map(function (tick) { return axis._offset + tick.pixel + labelShift; }));
      if (!boxes || (title.standoff && !boxes.length)) { return null; }
      var left = title.side === "left";
      var move = title.standoff ? labelsEdge(boxes, title.side) - title.edge : 0;
      var box = { left: title.box.left + move, right: title.box.right + move, top: title.box.top,
        bottom: title.box.bottom };
      var pad = title.standoff ? 0 : 2;
      var sign = left ? -1 : 1;
      var most = sign * (title.paperEdge - box[title.side]);
      var shift = 0;
      if (most < 0) {
        shift = most;
      } else {
        boxes.forEach(function (label) {
          var overlaps = box.left <= label.right + pad && label.left <= box.right + pad &&
            box.top <= label.bottom + pad && label.top <= box.bottom + pad;
          if (overlaps) { shift = Math.max(shift, sign * (label[title.side] - box[left ? "right" : "left"]) + pad); }
        });
        shift = Math.min(most, shift);
      }
      var x = round2(title.x + move);
      var scoot = shift > 0 || most < 0 ? "translate(" + round2(sign * shift) + ",0)" : null;
      return function () {
        setAttribute(title.text, "x", x);
        setAttribute(title.text, "transform", "rotate(-90," + x + "," + title.y + ")");
        children(title.text, "tspan.line").forEach(function (line) { setAttribute(line, "x", x); });
        setOrRemove(title.text.parentNode, "transform", scoot);
      };
    }

    function shapeElement(index) {
      return plot.querySelector('g.shapelayer path[data-index="' + index + '"]');
    }

    /* A shape moves by the pixel change of its coordinates on data axes (paper and domain ones stay put). */
    function planShape(index, layout) {
      var spec = plot._fullLayout.shapes[index];
      var element = shapeElement(index);
      if (!spec || !element || (spec.type !== "rect" && spec.type !== "line")) { return null; }
      var parsed = spec.type === "rect" ?
        /^M([-\d.e]+),([-\d.e]+)H([-\d.e]+)V([-\d.e]+)H([-\d.e]+)Z$/.exec(element.getAttribute("d")) :
        /^M([-\d.e]+),([-\d.e]+)L([-\d.e]+),([-\d.e]+)$/.exec(element.getAttribute("d"));
      if (!parsed) { return null; }
      var numbers = parsed.slice(1).map(Number);
      var moved = { x0: 0, x1: 0, y0: 0, y1: 0 };
      var ok = ["x", "y"].every(function (letter) {
        var ref = spec[letter + "ref"];
        var paths = ["0", "1"].map(function (end) { return "shapes[" + index + "]." + letter + end; });
        if (!/^[xy]\d*$/.test(ref)) {
          return paths.every(function (path) { return !(path in layout) || same(layout[path], shownLayout[path]); });
        }
        var now = toPixel(ref);
        var before = ranges;
        ranges = shownRanges;
        var old = toPixel(ref);
        ranges = before;
        ["0", "1"].forEach(function (end, k) {
          var oldValue = paths[k] in shownLayout ? shownLayout[paths[k]] : spec[letter + end];
          var newValue = paths[k] in layout ? layout[paths[k]] : oldValue;
          moved[letter + end] = now(newValue) - old(oldValue);
        });
        return isNumber(moved[letter + "0"]) && isNumber(moved[letter + "1"]);
      });
      if (!ok) { return null; }
      // Plotly writes a rectangle as M x0,y0 H x1 V y1 H x0 Z and a line as M x0,y0 L x1,y1.
      var x0 = numbers[0] + moved.x0;
      var y0 = numbers[1] + moved.y0;
      var x1 = numbers[2] + moved.x1;
      var y1 = numbers[3] + moved.y1;
      var d = spec.type === "rect" ?
        "M" + round2(x0) + "," + round2(y0) + "H" + round2(x1) + "V" + round2(y1) + "H" + round2(x0) + "Z" :
        "M" + round2(x0) + "," + round2(y0) + "L" + round2(x1) + "," + round2(y1);
      return function () { setAttribute(element, "d", d); };
    }

    /* An annotation without an arrow moves by the pixel change of its position and may change its text. */
    function planAnnotation(index, layout) {
      var spec = plot._fullLayout.annotations[index];
      var group = plot.querySelector('g.annotation[data-index="' + index + '"]');
      if (!spec || !group || spec.showarrow || spec.textangle) { return null; }
      var box = group.querySelector("g.cursor-pointer");
      var text = group.querySelector("text.annotation-text");
      var translate = box && /^translate\(([-\d.e]+),([-\d.e]+)\)$/.exec(box.getAttribute("transform") || "");
      if (!translate || !text) { return null; }
      var shift = { x: 0, y: 0 };
      var ok = ["x", "y"].every(function (letter) {
        var path = "annotations[" + index + "]." + letter;
        var ref = spec[letter + "ref"];
        var oldValue = path in shownLayout ? shownLayout[path] : spec[letter];
        var newValue = path in layout ? layout[path] : oldValue;
        if (!/^[xy]\d*$/.test(ref)) { return same(oldValue, newValue); }
        var before = ranges;
        ranges = shownRanges;
        var old = linearToPixel(ref)(Number(oldValue));
        ranges = before;
        shift[letter] = linearToPixel(ref)(Number(newValue)) - old;
        return isNumber(shift[letter]);
      });
      if (!ok) { return null; }
      var textPath = "annotations[" + index + "].text";
      var label = textPath in layout ? layout[textPath] : null;
      if (label !== null && spec.xanchor !== "center" && !same(label, shownLayout[textPath])) { return null; }
      if (label !== null && !labelShape(label, text)) { return null; }
      var x = round2(Number(translate[1]) + shift.x);
      var y = round2(Number(translate[2]) + shift.y);
      return function () {
        setAttribute(box, "transform", "translate(" + x + "," + y + ")");
        if (label !== null) { setLabel(text, label); }
      };
    }

    function planLayout(layout) {
      var axes = {};
      var shapes = {};
      var annotations = {};
      var supported = Object.keys(layout).every(function (path) {
        if (same(layout[path], shownLayout[path])) { return true; }
        var match = /^([xy]axis\d*)\.(range|tickvals|ticktext)$/.exec(path);
        if (match) { axes[match[1]] = true; return true; }
        match = /^shapes\[(\d+)\]\.[xy][01]$/.exec(path);
        if (match) { shapes[match[1]] = true; return true; }
        match = /^annotations\[(\d+)\]\.(x|y|text)$/.exec(path);
        if (match) { annotations[match[1]] = true; return true; }
        return false;
      });
      if (!supported) { return null; }
      ranges = {};
      Object.keys(shownRanges).forEach(function (name) { ranges[name] = shownRanges[name]; });
      var rangeChanged = {};
      Object.keys(axes).forEach(function (name) {
        var path = name + ".range";
        if (path in layout) {
          ranges[name] = [Number(layout[path][0]), Number(layout[path][1])];
          rangeChanged[name] = !same(ranges[name], shownRanges[name]);
        }
      });
      /* A new range of an axis held to another's scale is widened, or widens the other's, as Plotly does. */
      var held = heldAxes();
      var widened = fitHeld(ranges, held);
      Object.keys(widened).forEach(function (name) {
        if (![name].concat(partners(held, name)).some(function (axis) { return rangeChanged[axis]; })) { return; }
        ranges[name] = widened[name];
        rangeChanged[name] = !same(ranges[name], shownRanges[name]);
        if (rangeChanged[name]) { axes[name] = true; }
      });
      (plot._fullLayout.shapes || []).forEach(function (spec, index) {
        if (rangeChanged[axisName(spec.xref || "")] || rangeChanged[axisName(spec.yref || "")]) { shapes[index] = true; }
      });
      (plot._fullLayout.annotations || []).forEach(function (spec, index) {
        if (rangeChanged[axisName(spec.xref || "")] || rangeChanged[axisName(spec.yref || "")]) {
          annotations[index] = true;
        }
      });
      var steps = [];
      var names = Object.keys(axes);
      for (var k = 0; k < names.length; k++) {
        var merged = {};
        [".tickvals", ".ticktext"].forEach(function (key) {
          var path = names[k] + key;
          merged[path] = path in layout ? layout[path] :
            path in shownLayout ? shownLayout[path] : plot._fullLayout[names[k]][key.slice(1)];
        });
        var axisStep = planAxis(names[k], merged);
        if (!axisStep) { return null; }
        steps.push(axisStep);
      }
      var shapeIndices = Object.keys(shapes);
      for (k = 0; k < shapeIndices.length; k++) {
        var shapeStep = planShape(Number(shapeIndices[k]), layout);
        if (!shapeStep) { return null; }
        steps.push(shapeStep);
      }
      var annotationIndices = Object.keys(annotations);
      for (k = 0; k < annotationIndices.length; k++) {
        var annotationStep = planAnnotation(Number(annotationIndices[k]), layout);
        if (!annotationStep) { return null; }
        steps.push(annotationStep);
      }
      return { steps: steps, rangeChanged: rangeChanged };
    }

    /* ---- public ---- */

    /* Plotly has just drawn the figure with `updates` (one {path: value} per trace) and `layout` (paths of
       the layout) applied to it. */
    var drawing = null;  // what Plotly last drew, read lazily at the next step (page load stays light)

    function drawn(updates, layout) {
      if (canvases) { canvases.clear(); }
      drawing = { updates: updates, layout: layout };
      base = null;
      // Read it when the page is idle, so that the next step does not pay for it.
      var later = window.requestIdleCallback || function (callback) { return setTimeout(callback, 50); };
      later(readPendingDrawing);
    }

    function readPendingDrawing() {
      // A plot purged meanwhile (a live figure's view was removed) has nothing left to read.
      if (drawing && plot._fullLayout) {
        readDrawing(drawing.updates, drawing.layout);
        drawing = null;
      }
    }

    function readDrawing(updates, layout) {
      shown = initial.map(function (flat, index) {
        var copy = {};
        Object.keys(flat).forEach(function (path) { copy[path] = flat[path]; });
        Object.keys(updates[index] || {}).forEach(function (path) { copy[path] = updates[index][path]; });
        return copy;
      });
      shownLayout = {};
      Object.keys(layout || {}).forEach(function (path) { shownLayout[path] = layout[path]; });
      shownRanges = {};
      Object.keys(plot._fullLayout).forEach(function (name) {
        if (/^[xy]axis\d*$/.test(name)) { shownRanges[name] = rangeOf(name); }
      });
      ranges = shownRanges;
      titles = {};
      Object.keys(shownRanges).forEach(function (name) {
        if (name.charAt(0) === "y") { titles[name] = readTitle(name); }
      });
      var groups = traceGroups(plot);
      base = { points: [], angles: [], textOffsets: [] };
      colorbars = {};
      plot._fullData.forEach(function (full, index) {
        // Only a colour bar with explicit ticks moves (rope_viz/figures/direct_drawing.py).
        var moving = full.showscale && !full.coloraxis && full.colorbar && full.colorbar.tickmode === "array";
        if (full.type === "heatmap" && moving && window.RopeVizCanvas) {
          colorbars[index] = readColorbar(full);
        }
        var points = full.type === "scatter" ? pixels(full, {}, index) : null;
        base.points[index] = points;
        base.angles[index] = points ? markerAngles(points) : null;
        var group = groups[index];
        var slots = group ? children(group, "g.text g.textpoint") : [];
        var valid = points ? points.filter(Boolean) : [];
        var offset = null;
        if (slots.length === valid.length) {
          slots.some(function (slot, k) {
            var text = slot.querySelector("text");
            if (text) {
              offset = [Number(text.getAttribute("x")) - valid[k][0], Number(text.getAttribute("y")) - valid[k][1]];
            }
            return Boolean(text);
          });
        }
        if (offset) {
          textOffsets[index] = offset;
          var withText = slots.filter(function (slot) { return slot.querySelector("text"); })[0];
          textTemplates[index] = withText.querySelector("text").cloneNode(true);
          slotTemplates[index] = withText.cloneNode(true);
        }
        var point = group ? group.querySelector("g.points path.point") : null;
        if (point) { markerTemplates[index] = point.cloneNode(true); }
        var line = group ? group.querySelector("g.lines path.js-line") : null;
        if (line) { lineTemplates[index] = line.cloneNode(true); }
        base.textOffsets[index] = textOffsets[index] || null;
      });
    }

    function apply(updates, layout) {
      readPendingDrawing();
      if (!base || !plot._fullLayout) { return false; }
      var plannedLayout = planLayout(layout || {});
      if (!plannedLayout) {
        ranges = shownRanges;
        return false;
      }
      var groups = traceGroups(plot);
      var steps = plannedLayout.steps;
      var changes = updates.map(function (update, index) {
        var changed = {};
        Object.keys(update).forEach(function (path) {
          if (!same(update[path], shown[index][path])) { changed[path] = update[path]; }
        });
        return changed;
      });
      for (var index = 0; index < changes.length; index++) {
        var update = changes[index];
        var full = plot._fullData[index];
        var moved = full && (plannedLayout.rangeChanged[axisName(full.xaxis || "x")] ||
          plannedLayout.rangeChanged[axisName(full.yaxis || "y")]);
        if (Object.keys(update).length === 0 && !moved) { continue; }
        var group = groups[index];
        var planned = null;
        var visible = full && full.visible === true;
        if (visible && !group && full.type === "scatter" && isEmpty(value(update, index, "x"))) {
          planned = [];  // an empty trace: Plotly drew no group for it, and there is nothing to draw
        } else if (visible && group) {
          if (full.type === "scatter") {
            planned = planScatter(full, update, index, group);
          } else if (full.type === "bar" && !plannedLayout.rangeChanged[axisName(full.xaxis)]) {
            planned = planBars(full, update, index, group);
          } else if (full.type === "heatmap") {
            planned = planHeatmap(full, update, index, group);
          }
        }
        if (!planned) {
          ranges = shownRanges;
          return false;
        }
        steps = steps.concat(planned);
      }
      steps.forEach(function (step) { step(); });
      if (canvases) { canvases.show(); }
      changes.forEach(function (update, index) {
        Object.keys(update).forEach(function (path) { shown[index][path] = update[path]; });
      });
      Object.keys(layout || {}).forEach(function (path) { shownLayout[path] = layout[path]; });
      shownRanges = ranges;
      return true;
    }

    return { apply: apply, drawn: drawn };
  }

  /* Ranges for the axes held to another's scale that show the whole of the given ranges (`held`, by axis
     name) in the axes' lengths in px, widening one axis of each pair around its middle: what Plotly does to
     such axes when it draws (constrain "range", its default), and keeps in the layout. An axis that Plotly
     constrains by shrinking its domain instead (constrain "domain") keeps its range. `axes`: per axis name
     the name of the axis it is held to (scaleanchor), the scale ratio, its length in px and its constrain,
     as `placement` gives them. Pairs only: an axis held to an axis that is itself held is left to Plotly. */
  function fitHeld(held, axes) {
    var ranges = {};
    function around(range, span) {
      var middle = (range[0] + range[1]) / 2;
      var half = span / 2 * (range[1] < range[0] ? -1 : 1);
      return [middle - half, middle + half];
    }
    Object.keys(axes).forEach(function (name) {
      var other = axes[name].scaleanchor;
      if (!other || !held[name] || !held[other] || !axes[other] || axes[other].scaleanchor) { return; }
      if (axes[name].constrain === "domain" || axes[other].constrain === "domain") { return; }
      /* px per unit of `other`; a unit of `name` spans `ratio` times as many px. */
      var ratio = axes[name].scaleratio || 1;
      var scale = Math.min(axes[other].length / Math.abs(held[other][1] - held[other][0]),
        axes[name].length / (ratio * Math.abs(held[name][1] - held[name][0])));
      ranges[other] = around(held[other], axes[other].length / scale);
      ranges[name] = around(held[name], axes[name].length / (ratio * scale));
    });
    return ranges;
  }

  /* What fitHeld needs of an axis of Plotly's full layout. */
  function heldAxis(item) {
    return { scaleanchor: item.scaleanchor ? axisName(item.scaleanchor) : undefined, scaleratio: item.scaleratio,
      length: item._length, constrain: item.constrain };
  }

  /* Where Plotly placed a figure's parts vertically, as the presenter view (rope-viz-present.js) needs them to
     lay the figure out at another height: the figure's size and its plot area's height; per axis its domain,
     the axis it overlays, the name of the axis it is held to (scaleanchor "x" gives "xaxis") and at what
     scale ratio, and its length in px; per legend its y; the paper y of annotations and shapes; each colour
     bar's y and length. */
  function placement(plot) {
    var full = plot._fullLayout;
    var size = full._size;
    var facts = { width: full.width, height: full.height, plotHeight: size.h, geometry: [size.l, size.r, size.t, size.b],
      axes: {}, legends: {}, annotations: [], shapes: [], colorbars: [] };
    Object.keys(full).forEach(function (key) {
      var item = full[key];
      if (/^[xy]axis\d*$/.test(key)) {
        facts.axes[key] = heldAxis(item);
        facts.axes[key].domain = item.domain;
        facts.axes[key].overlaying = item.overlaying;
        facts.geometry.push(item._offset, item._length);
      } else if (/^legend\d*$/.test(key) && item && full.showlegend) {
        facts.legends[key] = { y: item.y, yref: item.yref };
      }
    });
    ["annotations", "shapes"].forEach(function (kind) {
      facts[kind] = (full[kind] || []).map(function (item) {
        return { yref: item.yref, y: item.y, y0: item.y0, y1: item.y1 };
      });
    });
    plot._fullData.forEach(function (trace) {
      var bar = trace.showscale && trace.colorbar;
      if (bar) {
        facts.colorbars.push({ index: trace.index, y: bar.y, len: bar.len, yanchor: bar.yanchor, yref: bar.yref,
          orientation: bar.orientation, lenmode: bar.lenmode });
      }
    });
    return facts;
  }

  window.RopeVizDirect = {
    create: create,
    placement: placement,
    /* Pure helpers, unit-tested on their own (tests/js/). */
    parseColor: parseColor, colorScale: colorScale, contrast: contrast, cssColor: cssColor, extent: extent,
    fitHeld: fitHeld, axisPixel: axisPixel, dataToPixel: dataToPixel, segments: segments, pathOf: pathOf, edges: edges,
    translation: translation, labelShape: labelShape, colorbarKeepsLayout: colorbarKeepsLayout
  };
})();
