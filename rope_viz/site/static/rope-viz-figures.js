/* rope-viz: draw the course's precomputed figures and wire their sliders. No network, no kernel.
 *
 * Each <figure class="rope-viz-demo"> holds range inputs, an empty plot <div>, a readout and a JSON payload
 * written at build time by rope_viz.figures.static. A slider move looks up the precomputed state
 * (index = sum of slider index * stride) and draws it: directly in the SVG when only trace data change
 * (rope-viz-direct.js), otherwise with one Plotly.update call. Nothing is computed here beyond that lookup:
 * every number comes from rope_viz.
 */
(function () {
  "use strict";

  var LIGHT = { font: "#1f2328", grid: "#d8dee4", line: "#8c959f" };
  var DARK = { font: "#ced6dd", grid: "#3a434c", line: "#6e7781" };
  /* A slider that rests this long has settled: Plotly then draws its state (see commit below). */
  var COMMIT_DELAY_MS = 250;

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

    /* Resolved trace updates of a state: one {path: value} object per trace. */
    function traceValues(state) {
      return state.t.map(function (traceUpdate) {
        var values = {};
        Object.keys(traceUpdate).forEach(function (path) { values[path] = resolve(traceUpdate[path], arrays); });
        return values;
      });
    }

    /* Two ways to draw a state. A step is drawn directly in the SVG when rope-viz-direct.js covers all it
       changes (well inside a frame); any other step, and the settled state once the slider rests, is drawn
       by Plotly, so that hover labels and later redraws show the state on screen. */
    var direct = window.RopeVizDirect ? window.RopeVizDirect.create(plot, figure) : null;
    var committed = stateIndex();  // the state Plotly itself holds
    var shown = committed;  // the state on screen
    var commitTimer = null;

    function finish(index, path) {
      shown = index;
      root.dataset.path = path;
      root.dataset.renders = String(Number(root.dataset.renders) + 1);
      root.dataset.state = String(index);
      root.dispatchEvent(new CustomEvent("rope-viz:rendered", { detail: { state: index, path: path } }));
    }

    function drawWithPlotly(index) {
      var state = payload.states[index];
      var layout = layoutUpdate(state);
      busy = true;
      committed = index;
      return Plotly.update(plot, dataUpdate(state), layout, traceIndices).then(function () {
        busy = false;
        root.dataset.committed = String(index);
      });
    }

    function scheduleCommit(delay) {
      clearTimeout(commitTimer);
      commitTimer = setTimeout(commit, delay);
    }

    /* data-commit-delay overrides the delay, and a "rope-viz:commit" event commits at once (for tests). */
    function commitDelay() {
      var delay = Number(root.dataset.commitDelay);
      return isFinite(delay) && root.dataset.commitDelay ? delay : COMMIT_DELAY_MS;
    }
    root.addEventListener("rope-viz:commit", function () { scheduleCommit(0); });

    /* While the pointer holds a slider, steps keep coming: Plotly draws once it lets go. */
    var holding = false;
    inputs.forEach(function (input) {
      input.addEventListener("pointerdown", function () { holding = true; });
    });
    ["pointerup", "pointercancel"].forEach(function (type) {
      window.addEventListener(type, function () {
        if (!holding) { return; }
        holding = false;
        if (shown !== committed) { scheduleCommit(commitDelay()); }
      });
    });

    function commit() {
      commitTimer = null;
      if (holding) { return; }
      if (busy || pending !== null) { scheduleCommit(commitDelay()); return; }
      if (shown === committed) { return; }
      var index = shown;
      drawWithPlotly(index).then(function () {
        root.dispatchEvent(new CustomEvent("rope-viz:committed", { detail: { state: index } }));
        render();
      });
    }

    /* Draw a step directly if rope-viz-direct.js covers it. Should it fail, Plotly draws the step (and the
       error is reported, for the browser tests to catch). */
    function applyDirectly(state) {
      try {
        return direct.apply(traceValues(state), layoutUpdate(state));
      } catch (error) {
        console.error("rope-viz: direct drawing failed, Plotly draws instead:", error);
        return false;
      }
    }

    /* Apply the newest requested state; moves that arrive while Plotly draws collapse into one. */
    function render() {
      if (busy) { return; }
      if (pending === null) { return; }
      var index = pending;
      pending = null;
      var state = payload.states[index];
      readout.textContent = state.r;
      if (direct && applyDirectly(state)) {
        finish(index, "direct");
        scheduleCommit(commitDelay());
        return;
      }
      clearTimeout(commitTimer);
      drawWithPlotly(index).then(function () {
        finish(index, "full");
        render();
      });
    }

    /* Plotly redraws on its own too (a resize, the theme): its drawing becomes the new base. */
    function afterPlot() {
      if (direct) { direct.drawn(traceValues(payload.states[committed]), layoutUpdate(payload.states[committed])); }
      if (!busy && shown !== committed) { scheduleCommit(0); }
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

    /* The readout and the slider values keep the size of their longest text: a step that wraps the readout
       onto another line would move everything below the figure (and chromium repaints all of it), and a
       wider value would resize the sliders under the pointer. Measured when the page is idle, and again
       when the window changes width. */
    var reservedWidth = null;
    function reserveSpace() {
      var measure = document.createElement("canvas").getContext("2d");
      outputs.forEach(function (output, k) {
        measure.font = getComputedStyle(output).font;
        var widest = Math.max.apply(null, payload.controls[k].texts.map(function (text) {
          return measure.measureText(text).width;
        }));
        output.style.display = "inline-block";
        output.style.minWidth = Math.ceil(widest) + "px";
      });
      if (reservedWidth === readout.clientWidth) { return; }  // the readout wraps as before
      reservedWidth = readout.clientWidth;
      var shownText = readout.textContent;
      var longest = payload.states.map(function (state) { return state.r; })
        .sort(function (a, b) { return b.length - a.length; }).slice(0, 3);
      readout.style.minHeight = "";
      var tallest = Math.max.apply(null, longest.map(function (text) {
        readout.textContent = text;
        return readout.getBoundingClientRect().height;
      }));
      readout.textContent = shownText;
      readout.style.minHeight = tallest + "px";
      root.dataset.reserved = "true";
    }
    var later = window.requestIdleCallback || function (callback) { return setTimeout(callback, 200); };
    window.addEventListener("resize", function () { later(reserveSpace); });

    /* The first step of a drag would set up what the direct drawing keeps from step to step (its canvas
       layers, the browser's caches of their text): do it when the page is idle, one slider at a time, by
       drawing a neighbouring state and the current one again within one task (nothing is painted in
       between), then handing the page back to Plotly's drawing. */
    function warmUp(k) {
      if (k >= inputs.length || !direct) {
        root.dataset.warm = "true";
        return;
      }
      if (busy || holding || pending !== null || shown !== committed) {
        later(function () { warmUp(k); });
        return;
      }
      var value = Number(inputs[k].value);
      var step = value < Number(inputs[k].max) ? 1 : -1;
      if (Number(inputs[k].max) > 0 && applyDirectly(payload.states[committed + step * payload.strides[k]])) {
        if (applyDirectly(payload.states[committed])) {
          direct.drawn(traceValues(payload.states[committed]), layoutUpdate(payload.states[committed]));
        } else {
          drawWithPlotly(committed);
        }
      }
      later(function () { warmUp(k + 1); });
    }

    return Plotly.newPlot(plot, figure.data, figure.layout, config).then(function () {
      plot.on("plotly_afterplot", afterPlot);
      afterPlot();
      later(reserveSpace);
      later(function () { warmUp(0); });
      root.dataset.state = String(stateIndex());
      root.dataset.committed = String(committed);
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
