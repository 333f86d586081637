/* rope-viz: draw the course's precomputed figures and wire their sliders. No network, no kernel.
 *
 * Each <figure class="rope-viz-demo"> holds range inputs, an empty plot <div>, a readout and a JSON payload
 * written at build time by rope_viz.figures.static. A slider move looks up the precomputed state
 * (index = sum of slider index * stride) and applies it with one Plotly.update call. Nothing is computed here
 * beyond that lookup: every number comes from rope_viz.
 */
(function () {
  "use strict";

  var LIGHT = { font: "#1f2328", grid: "#d8dee4", line: "#8c959f" };
  var DARK = { font: "#ced6dd", grid: "#3a434c", line: "#6e7781" };

  function isDark() {
    return document.documentElement.dataset.theme === "dark";
  }

  function resolve(value, arrays) {
    if (value && typeof value === "object" && !Array.isArray(value) && "$ref" in value) {
      return arrays[value.$ref];
    }
    if (Array.isArray(value)) {
      return value.map(function (item) { return resolve(item, arrays); });
    }
    if (value && typeof value === "object") {
      var out = {};
      Object.keys(value).forEach(function (key) { out[key] = resolve(value[key], arrays); });
      return out;
    }
    return value;
  }

  /* Theme colours as Plotly layout paths, for every axis and polar subplot the figure has. */
  function themeUpdate(layout) {
    var colors = isDark() ? DARK : LIGHT;
    var update = {
      "font.color": colors.font,
      "paper_bgcolor": "rgba(0,0,0,0)",
      "plot_bgcolor": "rgba(0,0,0,0)",
      "legend.bgcolor": "rgba(0,0,0,0)"
    };
    Object.keys(layout).forEach(function (key) {
      if (/^[xy]axis\d*$/.test(key)) {
        update[key + ".gridcolor"] = colors.grid;
        update[key + ".linecolor"] = colors.line;
        update[key + ".zerolinecolor"] = colors.grid;
      } else if (/^polar\d*$/.test(key)) {
        update[key + ".bgcolor"] = "rgba(0,0,0,0)";
        update[key + ".angularaxis.gridcolor"] = colors.grid;
        update[key + ".angularaxis.linecolor"] = colors.line;
        update[key + ".radialaxis.gridcolor"] = colors.grid;
      }
    });
    return update;
  }

  function setPath(target, path, value) {
    var keys = path.replace(/\[(\d+)\]/g, ".$1").split(".");
    var node = target;
    for (var i = 0; i < keys.length - 1; i++) {
      if (node[keys[i]] === undefined) {
        node[keys[i]] = /^\d+$/.test(keys[i + 1]) ? [] : {};
      }
      node = node[keys[i]];
    }
    node[keys[keys.length - 1]] = value;
  }

  function init(root) {
    var payload = JSON.parse(root.querySelector("script.rope-viz-payload").textContent);
    var arrays = payload.arrays;
    var plot = root.querySelector(".rope-viz-plot");
    var readout = root.querySelector(".rope-viz-readout");
    var inputs = Array.prototype.slice.call(root.querySelectorAll("input[type=range]"));
    var outputs = inputs.map(function (input) { return root.querySelector('output[for="' + input.id + '"]'); });
    var figure = resolve(payload.figure, arrays);
    var traceIndices = figure.data.map(function (_, index) { return index; });
    var theme = themeUpdate(figure.layout);
    Object.keys(theme).forEach(function (path) { setPath(figure.layout, path, theme[path]); });

    /* Plotly's responsive mode sizes the plot to its container on every resize; give the container the
       figure's own height so a resize changes only the width. */
    if (figure.layout.height) {
      plot.style.height = figure.layout.height + "px";
    }

    var config = {
      responsive: true,
      displaylogo: false,
      modeBarButtonsToRemove: ["sendDataToCloud", "select2d", "lasso2d"],
      toImageButtonOptions: { format: "png", scale: 2 }
    };
    var pending = null;
    var busy = false;
    root.dataset.renders = "0";

    function stateIndex() {
      return inputs.reduce(function (sum, input, k) {
        return sum + Number(input.value) * payload.strides[k];
      }, 0);
    }

    function dataUpdate(state) {
      var update = {};
      state.t.forEach(function (traceUpdate, traceIndex) {
        Object.keys(traceUpdate).forEach(function (path) {
          if (!(path in update)) {
            update[path] = traceIndices.map(function () { return undefined; });
          }
          update[path][traceIndex] = resolve(traceUpdate[path], arrays);
        });
      });
      return update;
    }

    function layoutUpdate(state) {
      var update = {};
      Object.keys(state.l).forEach(function (path) { update[path] = resolve(state.l[path], arrays); });
      return update;
    }

    /* Cartesian scatter traces can be moved without redrawing the whole figure (Plotly.animate with
       redraw: false); every other trace type, and any change of layout, needs a full Plotly.update. */
    var fastTraces = figure.data.map(function (trace) {
      return (trace.type || "scatter") === "scatter";
    });
    var appliedLayout = JSON.stringify(layoutUpdate(payload.states[stateIndex()]));

    function canMoveFast(state, layoutKey) {
      if (layoutKey !== appliedLayout) { return false; }
      return state.t.every(function (traceUpdate, traceIndex) {
        return fastTraces[traceIndex] || Object.keys(traceUpdate).length === 0;
      });
    }

    function moveFast(state) {
      var traces = [];
      var data = [];
      state.t.forEach(function (traceUpdate, traceIndex) {
        var paths = Object.keys(traceUpdate);
        if (paths.length === 0) { return; }
        var trace = {};
        paths.forEach(function (path) { setPath(trace, path, resolve(traceUpdate[path], arrays)); });
        traces.push(traceIndex);
        data.push(trace);
      });
      return Plotly.animate(plot, { data: data, traces: traces }, {
        transition: { duration: 0 },
        frame: { duration: 0, redraw: false },
        mode: "immediate"
      });
    }

    /* Apply the newest requested state; moves that arrive while Plotly draws collapse into one. */
    function render() {
      if (busy) { return; }
      if (pending === null) { return; }
      var index = pending;
      pending = null;
      busy = true;
      var state = payload.states[index];
      readout.textContent = state.r;
      var layout = layoutUpdate(state);
      var layoutKey = JSON.stringify(layout);
      var fast = canMoveFast(state, layoutKey);
      root.dataset.path = fast ? "fast" : "full";
      var drawn = fast ? moveFast(state) : Plotly.update(plot, dataUpdate(state), layout, traceIndices);
      appliedLayout = layoutKey;
      drawn.then(function () {
        busy = false;
        root.dataset.renders = String(Number(root.dataset.renders) + 1);
        root.dataset.state = String(index);
        root.dispatchEvent(new CustomEvent("rope-viz:rendered", { detail: { state: index } }));
        render();
      });
    }

    inputs.forEach(function (input, k) {
      input.addEventListener("input", function () {
        var text = payload.controls[k].texts[Number(input.value)];
        outputs[k].textContent = text;
        input.setAttribute("aria-valuetext", text);
        pending = stateIndex();
        render();
      });
    });

    return Plotly.newPlot(plot, figure.data, figure.layout, config).then(function () {
      root.dataset.state = String(stateIndex());
      root.dataset.readyAt = String(performance.now());
      root.dataset.ready = "true";
      root.dispatchEvent(new CustomEvent("rope-viz:ready"));
    });

  }

  function watchTheme() {
    new MutationObserver(function () {
      Array.prototype.forEach.call(document.querySelectorAll("figure.rope-viz-demo[data-ready] .rope-viz-plot"),
        function (plot) { Plotly.relayout(plot, themeUpdate(plot.layout)); });
    }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  }

  function initAll() {
    if (typeof Plotly === "undefined") {
      Array.prototype.forEach.call(document.querySelectorAll(".rope-viz-readout"), function (node) {
        node.insertAdjacentText("beforebegin", "The plotting library failed to load; the figure cannot be drawn.");
      });
      throw new Error("rope-viz: Plotly is not loaded");
    }
    watchTheme();
    /* Draw the figures one after another in page order, yielding between them, so that the first one is
       interactive as early as possible and a long page never blocks the browser in one piece. */
    var roots = Array.prototype.slice.call(document.querySelectorAll("figure.rope-viz-demo"));
    (function next(index) {
      if (index >= roots.length) { return; }
      Promise.resolve()
        .then(function () { return init(roots[index]); })
        .catch(function (error) { console.error("rope-viz: figure " + index + " failed:", error); })
        .then(function () { setTimeout(function () { next(index + 1); }, 0); });
    })(0);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initAll);
  } else {
    initAll();
  }
})();
