/* rope-viz: draw the course's figures and wire their sliders. No network; no kernel on the site.
 *
 * A figure is a <figure class="rope-viz-demo"> holding range inputs, an empty plot <div> and a readout. Where
 * its states come from is its source:
 *   - on the site, a JSON payload written at build time by rope_viz.figures.static holds every state
 *     (index = sum of slider index * stride); the figures are found and drawn when the page loads;
 *   - in Jupyter, the live widget (rope_viz.widgets) asks the kernel for each state and calls
 *     RopeVizFigures.attach with a source of its own.
 * A state is drawn directly in the SVG when only what rope-viz-direct.js covers changes, otherwise with one
 * Plotly.update call. Nothing is computed here beyond looking a state up: every number comes from rope_viz.
 */
(function () {
  "use strict";

  /* The plotly.js loaded before this script. Every figure this copy of the script draws stays with it: a
     notebook whose kernel restarted may load the figure library a second time, and a plot must never be
     updated by a plotly.js other than the one that drew it (its internal state would not match). */
  var Plotly = window.Plotly;
  /* The direct drawing (rope-viz-direct.js) and its canvas layers (rope-viz-canvas.js) write into the SVG that
     Plotly drew and read some of Plotly's internals; they were written and tested against this plotly.js
     (tests/test_plotly_fence.py keeps it equal to the bundle the site serves). With any other version
     every step is a plain Plotly redraw: slower, but drawn by Plotly itself. CONTRIBUTING.md says how to
     upgrade. */
  var TESTED_PLOTLY_VERSION = "4.1.1";
  var directAllowed = Boolean(Plotly) && Plotly.version === TESTED_PLOTLY_VERSION;
  if (Plotly && !directAllowed) {
    console.info(
      "rope-viz: plotly.js " + Plotly.version + " is not the version the direct drawing was tested with (" +
      TESTED_PLOTLY_VERSION + "), so every slider step is a plain Plotly redraw"
    );
  }
  /* The plots this copy drew, for the theme watcher. */
  var drawnPlots = new Set();
  /* What other scripts add to every figure once it is drawn (rope-viz-present.js: the Present button). */
  var extensions = [];

  /* The narrowest width a plot is laid out at. The figures are designed at the page's width (662 px), and
     below about 640 px the titles, legends and tick labels of some no longer fit: on a narrower screen (a
     phone) the plot is laid out at this width and scaled down to the figure's width, whole, as an image would
     be. A figure whose text fits in less carries its own width (`narrowest`, from its demo's
     narrowest_plot_width), and its text is shown larger there, and larger again in the presenter view on a phone
     (rope-viz-present.js, phoneSize). The deck uses this one for every slide. */
  var NARROWEST_PLOT = 640;
  /* The most lines of a scene's caption kept free while no scene is on screen. At the page's width every
     caption fits in two, so the plot stays put as scenes change; on a phone or in a narrow notebook panel,
     where a caption takes up to five, a longer one moves the plot down while it shows, and no empty band of
     five lines sits above the plot the rest of the time. */
  var CAPTION_LINES = 2;

  /* Plotly's tool buttons default to white at 30 % on black at 50 % (on a transparent paper): 1.6:1 on a light
     page, 2.6:1 on a dark one. Here their icons have 6:1 against their bar, and the page's words when active. */
  var LIGHT = { font: "#1f2328", grid: "#d8dee4", line: "#8c959f", tool: "#59636e", toolbar: "rgba(255,255,255,0.9)" };
  var DARK = { font: "#ced6dd", grid: "#3a434c", line: "#6e7781", tool: "#9198a1", toolbar: "rgba(20,24,30,0.9)" };

  /* The site's theme (pydata-sphinx-theme) or JupyterLab's. */
  function isDark() {
    if (document.documentElement.dataset.theme) {
      return document.documentElement.dataset.theme === "dark";
    }
    return Boolean(document.body) && document.body.dataset.jpThemeLight === "false";
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

  /* Theme colours as Plotly layout paths, for every axis and polar subplot the figure has (`dark`: the page's
     theme unless given). */
  function themeUpdate(layout, dark) {
    var colors = (dark === undefined ? isDark() : dark) ? DARK : LIGHT;
    var update = {
      "font.color": colors.font,
      "paper_bgcolor": "rgba(0,0,0,0)",
      "plot_bgcolor": "rgba(0,0,0,0)",
      "legend.bgcolor": "rgba(0,0,0,0)",
      "modebar.bgcolor": colors.toolbar,
      "modebar.color": colors.tool,
      "modebar.activecolor": colors.font
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

  var later = window.requestIdleCallback || function (callback) { return setTimeout(callback, 200); };

  /* ---- the state of the site's figures in the page URL ---------------------------------------------------

     Each figure's slider values are a query parameter named after its title:
     ?multi-speed-clocks=position:100,base:1000000 (control names and values, as in the payload). A value
     between two steps snaps to the nearer; anything malformed leaves the figure at its defaults. */

  /* A name in lower case, runs of other characters as "-" (rope_viz.figures.scene_links.slug). */
  function slug(text) {
    return String(text || "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }

  /* A figure's parameter name: its title as a slug; "-2", "-3", ... for a title already `taken` on the
     page. */
  function figureKey(title, taken) {
    var base = slug(title) || "figure";
    var key = base;
    for (var n = 2; taken.indexOf(key) >= 0; n++) { key = base + "-" + n; }
    return key;
  }

  /* "name:value,name:value" for the controls' values at `indices`. */
  function formatState(controls, indices) {
    return controls.map(function (control, k) { return control.name + ":" + control.values[indices[k]]; })
      .join(",");
  }

  /* Slider indices from such a text (each named value snapped to the nearest step, unnamed controls at
     `defaults`), or null if the text is malformed or names a control the figure does not have. */
  function parseState(text, controls, defaults) {
    if (typeof text !== "string" || text === "") { return null; }
    var indices = defaults.slice();
    var ok = text.split(",").every(function (pair) {
      var match = /^([A-Za-z_][\w]*):(.+)$/.exec(pair);
      var k = match ? controls.map(function (control) { return control.name; }).indexOf(match[1]) : -1;
      var value = match ? Number(match[2]) : NaN;
      if (k < 0 || !isFinite(value)) { return false; }
      var best = 0;
      controls[k].values.forEach(function (step, j) {
        if (Math.abs(step - value) < Math.abs(controls[k].values[best] - value)) { best = j; }
      });
      indices[k] = best;
      return true;
    });
    return ok ? indices : null;
  }

  /* Keep the figure's state in the page URL (replacing the history entry, once a slider rests), restore
     it from there, and give the figure a button that copies a link to it. */
  function keepInUrl(root, payload, key, handle) {
    var defaults = payload.controls.map(function (control) { return control.default; });
    var restored = parseState(new URLSearchParams(window.location.search).get(key), payload.controls, defaults);
    if (restored && handle) { handle.setIndices(restored); }
    var inputs = Array.prototype.slice.call(root.querySelectorAll("input[type=range]"));
    function link() {
      var params = new URLSearchParams(window.location.search);
      params.delete(key);
      var here = inputs.map(function (input) { return Number(input.value); });
      var own = here.join(",") === defaults.join(",") ? "" : key + "=" + formatState(payload.controls, here);
      var others = params.toString();
      var search = [others, own].filter(Boolean).join("&");
      return window.location.pathname + (search ? "?" + search : "") + window.location.hash;
    }
    var timer = null;
    root.addEventListener("rope-viz:rendered", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { history.replaceState(history.state, "", link()); }, 300);
    });
    var row = document.createElement("p");
    row.className = "rope-viz-link";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Copy link to this view";
    var status = document.createElement("span");
    status.setAttribute("role", "status");
    button.addEventListener("click", function () {
      var url = new URL(link().replace(/#.*$/, "") + "#" + root.id, window.location.href).href;
      var copied = navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(url) :
        Promise.reject(new Error("no clipboard"));
      copied.then(function () { status.textContent = "Link copied."; }, function () {
        status.textContent = "Copy this link: " + url;
      });
    });
    row.appendChild(button);
    row.appendChild(status);
    // After the Present button if it is there already (rope-viz-present.js puts it under the readout).
    (root.querySelector(".rope-viz-present") || root.querySelector(".rope-viz-readout")).after(row);
  }

  /* ---- scene links ---------------------------------------------------------------------------------------

     A link in the text, <a href="#scene:FIGURE:SCENE"> (FIGURE the figure's key, SCENE the scene's name as a
     slug; rope_viz.figures.scene_links writes and checks them), shows that scene in that figure of the page:
     on a click, and when the page opens with such an address (a link from another page). */
  var sceneTargets = {};  // figure key -> function(scene slug): whether the figure has that scene and shows it
  var SCENE_LINK = /^#scene:([a-z0-9-]+):([a-z0-9-]+)$/;

  function followSceneLink(hash) {
    var match = SCENE_LINK.exec(hash || "");
    var show = match && sceneTargets[match[1]];
    return Boolean(show) && show(match[2]);
  }

  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href^="#scene:"]') : null;
    if (link && followSceneLink(link.getAttribute("href"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  /* The source of a site figure: every state precomputed in its payload (rope_viz.figures.static writes it).
     A payload holds arrays shared between states once ({"$ref": k} points at arrays[k]) and the states in
     one list, the state at slider indices (i0, i1, ...) at sum(i_k * strides[k]). */
  function decodePayload(payload) {
    var arrays = payload.arrays;
    function resolved(state) {
      return {
        t: state.t.map(function (update) { return resolve(update, arrays); }),
        l: resolve(state.l, arrays),
        r: state.r
      };
    }
    return {
      figure: resolve(payload.figure, arrays),
      texts: payload.controls.map(function (control) { return control.texts; }),
      scenes: payload.scenes || [],
      sideBySide: payload.sideBySide || null,
      narrowest: payload.narrowest || null,
      key: function (indices) {
        return String(indices.reduce(function (sum, index, k) { return sum + index * payload.strides[k]; }, 0));
      },
      /* A state, or a promise of one (the live source): here always at once. */
      state: function (indices) {
        return resolved(payload.states[Number(this.key(indices))]);
      },
      /* The readouts to reserve room for: the three longest of all states. */
      longestReadouts: payload.states.map(function (state) { return state.r; })
        .sort(function (a, b) { return b.length - a.length; }).slice(0, 3)
    };
  }

  /* Draw a figure and wire its sliders. `source` gives the initial figure, the value texts of every slider,
     a key for each combination of slider indices and the state there (or a promise of it). */
  function attach(root, source) {
    var plot = root.querySelector(".rope-viz-plot");
    var readout = root.querySelector(".rope-viz-readout");
    var inputs = Array.prototype.slice.call(root.querySelectorAll("input[type=range]"));
    var outputs = inputs.map(function (input) { return root.querySelector('output[for="' + input.id + '"]'); });
    var figure = source.figure;
    var traceIndices = figure.data.map(function (_, index) { return index; });
    var theme = themeUpdate(figure.layout);
    Object.keys(theme).forEach(function (path) { setPath(figure.layout, path, theme[path]); });

    /* Plotly's responsive mode sizes the plot to its container on every resize; give the container the
       figure's own height so a resize changes only the width. */
    if (figure.layout.height) {
      plot.style.height = figure.layout.height + "px";
    }

    /* On a screen narrower than the figure's narrowest width (its demo's narrowest_plot_width, or
       NARROWEST_PLOT), lay the plot out at that width and scale it down to the figure's
       (rope-viz-figures.css; the presenter view and the lecture deck scale their plots themselves). The plot's
       box keeps its size, so the room its scaled drawing leaves below is taken back. Plotly's hover follows the
       transform; the direct drawing works in the plot's own pixels. */
    var narrowest = source.narrowest || NARROWEST_PLOT;
    plot.dataset.narrowest = String(narrowest);  // for the presenter view on a phone
    function fitWidth() {
      if (gone() || presented() || document.documentElement.classList.contains("rope-viz-deck-on")) { return; }
      var style = getComputedStyle(root);
      var width = root.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (!(width > 0) || width >= narrowest) {
        if (plot.dataset.fit) {
          delete plot.dataset.fit;
          ["--rope-viz-fit", "--rope-viz-fit-width", "--rope-viz-fit-gap"].forEach(function (name) {
            plot.style.removeProperty(name);
          });
        }
        return;
      }
      var scale = width / narrowest;
      plot.dataset.fit = String(scale);
      plot.style.setProperty("--rope-viz-fit", String(scale));
      plot.style.setProperty("--rope-viz-fit-width", narrowest + "px");
      plot.style.setProperty("--rope-viz-fit-gap", -(1 - scale) * plot.offsetHeight + "px");
    }

    var config = {
      responsive: true,
      displaylogo: false,
      // No "Share chart..." button: it uploads the figure to Plotly's servers (plotly.js 3 shows it by
      // default); every tool a figure shows works in the page, offline.
      showSendToCloud: false,
      modeBarButtonsToRemove: ["select2d", "lasso2d"],
      toImageButtonOptions: { format: "png", scale: 2 }
    };
    var detached = false;  // the figure left the page (a live figure's view was removed): do nothing more
    function gone() { return detached || root.dataset.detached === "true"; }
    var pending = null;  // slider indices still to draw
    var busy = false;  // Plotly is drawing
    var fetching = false;  // waiting for a state from the source
    root.dataset.renders = "0";

    function indices() {
      return inputs.map(function (input) { return Number(input.value); });
    }

    function dataUpdate(state) {
      var update = {};
      state.t.forEach(function (traceUpdate, traceIndex) {
        Object.keys(traceUpdate).forEach(function (path) {
          if (!(path in update)) {
            update[path] = traceIndices.map(function () { return undefined; });
          }
          update[path][traceIndex] = traceUpdate[path];
        });
      });
      return update;
    }

    /* Two ways to draw a state. A step is drawn directly in the SVG when rope-viz-direct.js covers all it
       changes (well inside a frame); any other step is drawn by Plotly. The state drawn directly is handed
       to Plotly ("committed") only when something needs Plotly's own copy of it: the pointer or the focus
       in the plot (hover labels, zoom, the tool buttons) or a redraw of Plotly's own (a resize, the theme).
       Between steps the direct drawing stays on screen, so no Plotly redraw (30 to 150 ms here) ever
       stands between one key press or drag and the next. */
    var direct = directAllowed && window.RopeVizDirect ? window.RopeVizDirect.create(plot, figure) : null;
    var committed = null;  // the state Plotly itself holds: {key, state}
    var shown = null;  // the state on screen
    var commitTimer = null;

    function finish(entry, path) {
      shown = entry;
      root.dataset.path = path;
      root.dataset.renders = String(Number(root.dataset.renders) + 1);
      root.dataset.state = entry.key;
      root.dispatchEvent(new CustomEvent("rope-viz:rendered", { detail: { state: entry.key, path: path } }));
    }

    function drawWithPlotly(entry) {
      if (gone()) { return Promise.resolve(); }
      busy = true;
      committed = entry;
      var layout = Object.assign({}, entry.state.l);
      return Plotly.update(plot, dataUpdate(entry.state), layout, traceIndices).then(function () {
        busy = false;
        root.dataset.committed = entry.key;
      });
    }

    function scheduleCommit(delay) {
      clearTimeout(commitTimer);
      commitTimer = setTimeout(commit, delay);
    }

    /* Hand the state on screen to Plotly when the reader reaches into the plot; a "rope-viz:commit" event
       does it at once (for tests). */
    function needPlotly() {
      if (shown !== committed && commitTimer === null) { scheduleCommit(0); }
    }
    plot.addEventListener("pointerover", needPlotly);
    plot.addEventListener("focusin", needPlotly);
    root.addEventListener("rope-viz:commit", function () { scheduleCommit(0); });

    /* While the pointer holds a slider, steps keep coming (the idle warm-up below waits). */
    var holding = false;
    inputs.forEach(function (input) {
      input.addEventListener("pointerdown", function () { holding = true; });
    });
    function release() { holding = false; }
    window.addEventListener("pointerup", release);
    window.addEventListener("pointercancel", release);

    function commit() {
      commitTimer = null;
      if (gone()) { return; }
      if (busy || pending !== null || fetching) { scheduleCommit(50); return; }
      if (shown === committed) { return; }
      var entry = shown;
      drawWithPlotly(entry).then(function () {
        root.dispatchEvent(new CustomEvent("rope-viz:committed", { detail: { state: entry.key } }));
        render();
      });
    }

    /* Draw a step directly if rope-viz-direct.js covers it. Should it fail, Plotly draws the step (and the
       error is reported, for the browser tests to catch). */
    function applyDirectly(state) {
      try {
        return direct.apply(state.t, state.l);
      } catch (error) {
        console.error("rope-viz: direct drawing failed, Plotly draws instead:", error);
        return false;
      }
    }

    function draw(entry) {
      if (gone()) { return; }
      readout.textContent = entry.state.r;
      if (direct && applyDirectly(entry.state)) {
        finish(entry, "direct");
        render();
        return;
      }
      clearTimeout(commitTimer);
      drawWithPlotly(entry).then(function () {
        finish(entry, "full");
        render();
      });
    }

    /* Apply the newest requested state; moves that arrive while Plotly draws, or while the source
       computes a state, collapse into one. */
    function render() {
      if (busy || fetching || pending === null || gone()) { return; }
      var wanted = pending;
      pending = null;
      var key = source.key(wanted);
      var state = source.state(wanted);
      if (state && typeof state.then === "function") {
        fetching = true;
        state.then(function (value) {
          fetching = false;
          draw({ key: key, state: value });
        }, function (error) {
          fetching = false;
          root.dataset.error = String(error && error.message || error);
          render();
        });
        return;
      }
      draw({ key: key, state: state });
    }

    function showValue(k) {
      var text = source.texts[k][Number(inputs[k].value)];
      outputs[k].textContent = text;
      inputs[k].setAttribute("aria-valuetext", text);
    }

    /* Scenes (rope_viz.demos.base.Scene): a button each, under the sliders, that sets every slider to the
       scene's step and shows its caption; the button of the scene on screen is pressed. */
    var scenes = source.scenes || [];
    var sceneButtons = [];
    var sceneCaption = null;
    function markScene() {
      var here = indices().join(",");
      var active = null;
      scenes.forEach(function (scene, k) {
        var on = String(scene.indices.join(",") === here);
        // Only what changes: a write restyles the element even when the value stays the same.
        if (sceneButtons[k].getAttribute("aria-pressed") !== on) { sceneButtons[k].setAttribute("aria-pressed", on); }
        if (on === "true" && active === null) { active = scene; }
      });
      var caption = active ? active.caption : "";
      if (sceneCaption.textContent !== caption) { sceneCaption.textContent = caption; }
    }
    function showScene(scene) {
      scene.indices.forEach(function (index, k) {
        if (inputs[k]) { inputs[k].value = String(index); showValue(k); }
      });
      markScene();
      pending = indices();
      render();
    }
    if (scenes.length && inputs.length) {
      var group = document.createElement("div");
      group.className = "rope-viz-scenes";
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", "Scenes");
      scenes.forEach(function (scene) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = scene.name;
        button.addEventListener("click", function () { showScene(scene); });
        sceneButtons.push(button);
        group.appendChild(button);
      });
      sceneCaption = document.createElement("p");
      sceneCaption.className = "rope-viz-scene-caption";
      sceneCaption.setAttribute("aria-live", "polite");
      group.appendChild(sceneCaption);
      root.querySelector(".rope-viz-controls").after(group);
      markScene();
    }

    inputs.forEach(function (input, k) {
      input.addEventListener("input", function () {
        showValue(k);
        if (sceneCaption) { markScene(); }
        pending = indices();
        render();
      });
    });

    /* The readout and the slider values keep the size of their longest text: a step that wraps the readout
       onto another line would move everything below the figure (and the browser repaints all of it), and a
       wider value would resize the sliders under the pointer. Measured when the page is idle, and again
       when the window changes width. A source that cannot list its readouts in advance (the live one)
       makes room for the tallest one shown so far. */
    var reservedWidth = null;
    /* In the presenter view (rope-viz-present.js) the readout is zoomed in a narrower column: not measured. */
    function presented() { return root.classList.contains("rope-viz-presenting"); }
    var tallestShown = 0;
    function reserveSpace() {
      if (gone() || presented()) { return; }
      var measure = document.createElement("canvas").getContext("2d");
      outputs.forEach(function (output, k) {
        measure.font = getComputedStyle(output).font;
        var widest = Math.max.apply(null, source.texts[k].map(function (text) {
          return measure.measureText(text).width;
        }));
        output.style.display = "inline-block";
        output.style.minWidth = Math.ceil(widest) + "px";
      });
      if (reservedWidth === readout.clientWidth) { return; }  // the readout wraps as before
      reservedWidth = readout.clientWidth;
      tallestShown = reserveTallest(readout, source.longestReadouts || []);
      if (sceneCaption) {
        reserveTallest(sceneCaption, scenes.map(function (scene) { return scene.caption; }), CAPTION_LINES);
      }
      root.dataset.reserved = "true";
    }
    /* Give `element` the height of the tallest of `texts` and of its own text, but at most `lines` lines of
       it if given; return that height. */
    function reserveTallest(element, texts, lines) {
      var shownText = element.textContent;
      element.style.minHeight = "";
      var tallest = Math.max.apply(null, texts.concat([shownText]).map(function (text) {
        element.textContent = text;
        return element.getBoundingClientRect().height;
      }));
      element.textContent = shownText;
      var line = parseFloat(getComputedStyle(element).lineHeight);  // NaN for "normal": no cap
      if (lines && line > 0) { tallest = Math.min(tallest, lines * line); }
      element.style.minHeight = tallest + "px";
      return tallest;
    }
    /* A source without a list of readouts: the readout keeps the tallest height it has had, measured by a
       ResizeObserver after the browser's own layout (measuring at each step would force a layout of the
       whole page, which in JupyterLab is large). */
    if (!source.longestReadouts && window.ResizeObserver) {
      new ResizeObserver(function (entries) {
        var height = entries[entries.length - 1].target.getBoundingClientRect().height;
        if (reservedWidth !== null && height > tallestShown && !presented()) {
          tallestShown = height;
          readout.style.minHeight = height + "px";
        }
      }).observe(readout);
    }
    function onResize() { fitWidth(); later(reserveSpace); }
    window.addEventListener("resize", onResize);
    /* Once measured, a readout whose width changes without the window's (the theme's sidebar hidden or
       shown) is measured again at once, before the browser paints it: measured later, the text under it
       would move when the room is made. A lecture slide asks for the measure as it shows the figure
       ("rope-viz:reserve"), which may be before the page's first idle moment. */
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        if (reservedWidth !== null && readout.clientWidth !== reservedWidth && !gone()) { reserveSpace(); }
      }).observe(readout);
    }
    root.addEventListener("rope-viz:reserve", function () {
      if (readout.clientWidth !== reservedWidth) { reserveSpace(); }
    });
    /* Plotly's responsive mode follows the window, not the plot's own box: a plot whose box changes width
       alone (the page's layout settling after the first figures are drawn, a notebook panel resized) keeps
       a drawing of the old width, into which the direct drawing draws its steps, until Plotly lays it out
       again, at its next update after any resize of the window. Plotly resizes it as soon as its box
       differs from its drawing by more than a pixel, as Plotly's own autosize does. (The presenter view lays
       its plot out itself.) */
    var resizing = window.ResizeObserver ? new ResizeObserver(function (entries) {
      var width = entries[entries.length - 1].contentRect.width;
      var drawn = plot.querySelector(".main-svg");
      if (!gone() && !presented() && width > 0 && drawn &&
          Math.abs(width - Number(drawn.getAttribute("width"))) > 1) {
        Plotly.Plots.resize(plot);
      }
    }) : null;

    /* The first step of a drag would set up what the direct drawing keeps from step to step (its canvas
       layers, the browser's caches of their text): do it when the page is idle, one slider at a time, by
       drawing a neighbouring state and the current one again within one task (nothing is painted in
       between), then handing the page back to Plotly's drawing. Once the reader has moved a slider, the
       direct drawing is on screen and there is nothing left to prepare. */
    function warmUp(k) {
      if (gone()) { return; }
      if (k >= inputs.length || !direct || shown !== committed) {
        root.dataset.warm = "true";
        return;
      }
      if (busy || fetching || holding || pending !== null) {
        later(function () { warmUp(k); });
        return;
      }
      var here = indices();
      if (Number(inputs[k].max) === 0) { later(function () { warmUp(k + 1); }); return; }
      var near = here.slice();
      near[k] += here[k] < Number(inputs[k].max) ? 1 : -1;
      Promise.resolve(source.state(near, { peek: true })).then(function (neighbour) {
        if (gone()) { return; }
        if (busy || holding || pending !== null || shown !== committed) {
          later(function () { warmUp(k); });
          return;
        }
        if (applyDirectly(neighbour)) {
          if (applyDirectly(committed.state)) {
            direct.drawn(committed.state.t, committed.state.l);
          } else {
            drawWithPlotly(committed);
          }
        }
        later(function () { warmUp(k + 1); });
      }, function () { root.dataset.warm = "true"; });
    }

    /* Plotly redraws on its own too (a resize, the theme, printing): its drawing, of the state it holds,
       becomes the new base, and the state on screen goes back on it in the same task. */
    function afterPlot() {
      if (gone()) { return; }
      if (direct && committed) { direct.drawn(committed.state.t, committed.state.l); }
      if (!busy && shown !== committed && !(direct && applyDirectly(shown.state))) { scheduleCommit(0); }
    }

    fitWidth();
    /* The figure's width may change without the window's (the page's layout settling, a panel resized). In
       the next frame: a change of the figure's size within the observer's own callback would be reported as
       a loop. */
    var fitting = window.ResizeObserver ? new ResizeObserver(function () { requestAnimationFrame(fitWidth); }) : null;
    if (fitting) { fitting.observe(root); }
    var start = indices();
    var initial = Promise.resolve(source.state(start));
    /* The ranges the figure gives its axes, before Plotly draws: Plotly widens the range of an axis held to
       another's scale to fit the plot's shape and keeps it widened in the layout, so a plot laid out at
       another shape (rope-viz-present.js) starts again from these. */
    var ownRanges = {};
    Object.keys(figure.layout || {}).forEach(function (key) {
      var range = /^[xy]axis\d*$/.test(key) && figure.layout[key].range;
      if (range) { ownRanges[key] = range.slice(); }
    });
    plot.dataset.ownRanges = JSON.stringify(ownRanges);
    /* A figure of two stacked panels: the changes that put them side by side on a wide screen. */
    if (source.sideBySide) { plot.dataset.sideBySide = JSON.stringify(source.sideBySide); }
    return Promise.all([initial, Plotly.newPlot(plot, figure.data, figure.layout, config)]).then(function (results) {
      if (gone()) { return null; }
      committed = { key: source.key(start), state: results[0] };
      shown = committed;
      drawnPlots.add(plot);
      /* Screen readers meet the figure's name and readout, not every tick label (the tool buttons stay). */
      plot.querySelectorAll(".main-svg").forEach(function (svg) { svg.setAttribute("aria-hidden", "true"); });
      plot.on("plotly_afterplot", afterPlot);
      afterPlot();
      if (resizing) { resizing.observe(plot); }
      later(reserveSpace);
      later(function () { warmUp(0); });
      root.dataset.state = committed.key;
      root.dataset.committed = committed.key;
      root.dataset.readyAt = String(performance.now());
      root.dataset.ready = "true";
      extensions.forEach(function (extend) { extend(root); });
      root.dispatchEvent(new CustomEvent("rope-viz:ready"));
      var key = figureKey(root.getAttribute("aria-label"), Object.keys(sceneTargets));
      sceneTargets[key] = function (name) {
        var k = scenes.map(function (scene) { return slug(scene.name); }).indexOf(name);
        if (k < 0 || gone()) { return false; }
        root.scrollIntoView({ block: "start" });
        showScene(scenes[k]);
        sceneButtons[k].focus({ preventScroll: true });
        return true;
      };
      if (window.location.hash.indexOf("#scene:" + key + ":") === 0) { followSceneLink(window.location.hash); }
      return {
        /* The figure's name on its page: in the URL of its state and in links to its scenes. */
        key: key,
        /* Show slider indices set from outside (the kernel): values, then the state. */
        setIndices: function (values) {
          var changed = false;
          values.forEach(function (value, k) {
            if (inputs[k] && Number(inputs[k].value) !== value) {
              inputs[k].value = String(value);
              showValue(k);
              changed = true;
            }
          });
          if (changed) {
            if (sceneCaption) { markScene(); }
            pending = indices();
            render();
          }
        },
        /* Draw a state the source did not ask for (the kernel pushed it). */
        show: function (key, state) {
          pending = null;
          if (busy || fetching) {
            later(function () { draw({ key: key, state: state }); });
            return;
          }
          draw({ key: key, state: state });
        },
        /* The figure leaves the page: stop every timer and listener before the plot is purged. */
        detach: function () {
          detached = true;
          delete sceneTargets[key];
          drawnPlots.delete(plot);
          clearTimeout(commitTimer);
          window.removeEventListener("pointerup", release);
          window.removeEventListener("pointercancel", release);
          window.removeEventListener("resize", onResize);
          if (resizing) { resizing.disconnect(); }
          if (fitting) { fitting.disconnect(); }
        }
      };
    });
  }

  function watchTheme() {
    function restyle() {
      drawnPlots.forEach(function (plot) {
        if (!plot.isConnected) { drawnPlots.delete(plot); } else if (plot.layout) { Plotly.relayout(plot, themeUpdate(plot.layout)); }
      });
    }
    var observer = new MutationObserver(restyle);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    if (document.body) {
      observer.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light"] });
    }
    /* Printing (rope-viz-print.css): the paper is light whatever the reader's mode (the observer redraws the
       plots), and each plot is scaled to fit the printable width of A4 (570 px) and to leave the text of its
       figure (about as tall as on screen) room on a Letter page (900 px); in a block printed whole on a page
       of its own (data-print-unit, a slide of the lecture deck), the text of the whole block. */
    var html = document.documentElement;
    var wasDark = false;
    window.addEventListener("beforeprint", function () {
      wasDark = html.dataset.theme === "dark";
      if (wasDark) { html.dataset.theme = "light"; }
      drawnPlots.forEach(function (plot) {
        var text = (plot.closest("[data-print-unit]") || plot.parentNode).offsetHeight - plot.offsetHeight;
        var zoom = Math.min(1, 570 / plot.offsetWidth, (900 - text) / plot.offsetHeight);
        plot.style.setProperty("--rope-viz-print-zoom", String(zoom));
      });
    });
    window.addEventListener("afterprint", function () {
      if (wasDark) { html.dataset.theme = "dark"; }
    });
  }

  var watching = false;
  function watchThemeOnce() {
    if (!watching) { watching = true; watchTheme(); }
  }

  function initAll() {
    var roots = Array.prototype.slice.call(document.querySelectorAll("figure.rope-viz-demo"))
      .filter(function (root) { return root.querySelector("script.rope-viz-payload"); });
    if (roots.length === 0) { return; }
    if (typeof Plotly === "undefined") {
      roots.forEach(function (root) {
        root.querySelector(".rope-viz-readout").insertAdjacentText(
          "beforebegin", "The plotting library failed to load; the figure cannot be drawn.");
      });
      throw new Error("rope-viz: Plotly is not loaded");
    }
    watchThemeOnce();
    /* Draw the figures one after another in page order, yielding between them, so that the first one is
       interactive as early as possible and a long page never blocks the browser in one piece. A figure
       marked data-draw-first (the one a lecture deck opens on) comes before the others. */
    roots.sort(function (a, b) { return (b.dataset.drawFirst === "true") - (a.dataset.drawFirst === "true"); });
    (function next(index) {
      if (index >= roots.length) { return; }
      Promise.resolve()
        .then(function () {
          var root = roots[index];
          var payload = JSON.parse(root.querySelector("script.rope-viz-payload").textContent);
          return attach(root, decodePayload(payload)).then(function (handle) {
            if (handle) { keepInUrl(root, payload, handle.key, handle); }
          });
        })
        .catch(function (error) { console.error("rope-viz: figure " + index + " failed:", error); })
        .then(function () { setTimeout(function () { next(index + 1); }, 0); });
    })(0);
  }

  window.RopeVizFigures = {
    attach: function (root, source) { watchThemeOnce(); return attach(root, source); },
    /* Free a plot this copy drew (its listeners and Plotly's state), once the figure has left the page. */
    purge: function (plot) { drawnPlots.delete(plot); Plotly.purge(plot); },
    isDark: isDark,
    /* The narrowest width a plot is laid out at, which the presenter view and the deck keep too. */
    narrowestPlot: NARROWEST_PLOT,
    /* Call `extend(root)` for every figure drawn, those already on the page included. */
    extend: function (extend) {
      extensions.push(extend);
      drawnPlots.forEach(function (plot) { extend(plot.closest("figure.rope-viz-demo")); });
    },
    /* Pure helpers, unit-tested on their own (tests/js/). */
    decodePayload: decodePayload, themeUpdate: themeUpdate, setPath: setPath, figureKey: figureKey,
    formatState: formatState, parseState: parseState, slug: slug
  };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initAll);
  } else {
    initAll();
  }
})();
