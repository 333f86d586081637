/* rope-viz: the presenter view. Every figure gets a "Present" button that shows the figure and its controls
 * full screen for a projector: the plot on the left at the screen's height, the sliders, scenes and readout
 * on the right. On a screen 1080 px high everything is twice its size on the page, and it takes the same share
 * of the screen's height on any other screen (a projector shows 720 or 1080 px on the same wall); a screen
 * narrower than 16:9 (4:3) gets the layout of a 16:9 screen as wide, so that every plot keeps the width in its
 * own px that it is laid out at, and checked at, on a screen of 1920 × 1080.
 * On a screen taller than wide (a phone or a tablet held upright) the plot stands across the top instead,
 * and the rest comes under it.
 *
 * Nothing is drawn in a new way: Plotly lays the plot out at the screen's size divided by that scale, which
 * keeps the proportions of the page's layout (but for a figure of two stacked panels, which stand side by
 * side on the wide screen), and a CSS transform (which Plotly's hover follows) scales it up; the controls are
 * scaled with CSS zoom. Slider steps are drawn directly, as on the page. Escape, or the
 * button, leaves and puts the plot's layout and styles back as they were.
 */
(function () {
  "use strict";

  /* The plotly.js that drew the figures (see rope-viz-figures.js). */
  var Plotly = window.Plotly;
  var figures = window.RopeVizFigures;
  /* The scale on a screen 1080 px high; other heights scale in proportion. */
  var SCALE_AT_1080 = 2;
  /* The plot's share of the screen's width, the first at which the controls fit in the rest of it. With the
     first the plot is laid out as wide as on the page (662 px), on a screen of 16:9. */
  var PLOT_SHARES = [0.69, 0.64, 0.6];
  /* The widest screen for its height, 16:9, at the scale of 1080 px high. */
  var WIDTH_AT_1080 = 1920;
  /* On a screen taller than wide, the plot's share of the screen's height: the first at which the controls
     fit under it, or else the first (the rest scrolls). It is never taller than on the page, nor shorter than
     SHORTEST_PLOT unless the page's is: the height at which every figure is laid out on a screen of 1080 px. */
  var STACKED_PLOT_SHARES = [0.6, 0.5];
  var SHORTEST_PLOT = 1080 / SCALE_AT_1080;
  /* The narrowest column, in the plot's own px, that a panel of a figure of two stacked panels gets when they
     are put side by side: its tick labels, axis title and a title of a few words. */
  var MIN_COLUMN_WIDTH = 250;
  /* The figure presented: {root, button, plot, styles, undo, fallback}, or null. */
  var current = null;

  /* The scale and the plot's size, laid out and on screen, for a screen `width` by `height` px of which the
     plot has the `share`; with `byWidth`, a screen narrower than 16:9 is scaled as one of 16:9 as wide.
     `zoom`: the controls' scale. */
  function presenterSize(width, height, share, byWidth) {
    var scale = SCALE_AT_1080 * (byWidth ? Math.min(height / 1080, width / WIDTH_AT_1080) : height / 1080);
    return {
      scale: scale,
      zoom: scale,
      width: Math.floor(width * share / scale),
      height: Math.floor(height / scale),
      screenWidth: Math.floor(width * share),
      screenHeight: height
    };
  }

  /* The same for a screen taller than wide, the plot across its width over the `share` of its height, no
     taller than on the page (`pageHeight`, in its own px) and no shorter than SHORTEST_PLOT. The plot's text
     is scaled as on a screen as high in the other view, but the plot laid out at least `minWidth` wide (the
     page's narrowest; on a phone the plot is then smaller than on a desktop's page, as the page's own plot
     there); the controls are never smaller than on the page. A plot shorter than on the page puts two stacked
     panels side by side. */
  function stackedSize(width, height, pageHeight, share, minWidth) {
    var scale = Math.min(SCALE_AT_1080 * height / 1080, width / minWidth);
    var plotHeight = Math.floor(Math.min(pageHeight, Math.max(SHORTEST_PLOT, height * share / scale)));
    return {
      sideBySide: plotHeight < pageHeight,
      scale: scale,
      zoom: Math.max(1, scale),
      width: Math.floor(width / scale),
      height: plotHeight,
      screenWidth: width,
      screenHeight: Math.ceil(plotHeight * scale),
      stacked: true
    };
  }

  /* The same on a screen taller than wide and narrower than the widest plot a page scales down (a phone held
     upright), for a plot the page lays out at `narrowest` px, less than that widest: the page's own layout
     (`narrowest` by `pageHeight`, checked to fit) across the screen's `width`, so that its text is larger
     than on the page, where the plot is as wide as the page's column. A shorter layout would squeeze its
     panels at that width. */
  function phoneSize(width, pageHeight, narrowest) {
    var scale = width / narrowest;
    return {
      sideBySide: false,
      scale: scale,
      zoom: Math.max(1, scale),
      width: narrowest,
      height: pageHeight,
      screenWidth: width,
      screenHeight: Math.ceil(pageHeight * scale),
      stacked: true
    };
  }

  /* The presenter's plot is less tall than the page's, so a subplot, a title or a legend placed in Plotly's
     paper coordinates (fractions of the plot area's height) would move closer to its neighbours while the
     text between them keeps its size. Map paper y instead piecewise linearly: the gaps between the subplots
     (`domains`), which hold their tick labels, axis titles and titles, keep their height in px, and so does
     what lies above and below the plot area; the subplots share what is left. `before` and `after`: the plot
     area's height in px on the page and in the presenter view. */
  function paperMap(domains, before, after) {
    var points = [0];
    domains.slice().sort(function (a, b) { return a[0] - b[0]; }).forEach(function (domain) {
      if (points.length > 1 && domain[0] <= points[points.length - 1]) {
        points[points.length - 1] = Math.max(points[points.length - 1], domain[1]);
      } else {
        points.push(domain[0], domain[1]);
      }
    });
    points.push(1);
    /* From points[k] to points[k + 1]: a gap for even k, a subplot for odd k. */
    var gaps = 0;
    points.forEach(function (point, k) { if (k % 2 === 0 && k + 1 < points.length) { gaps += points[k + 1] - point; } });
    var shrink = (after / before - gaps) / (1 - gaps);
    if (after >= before || !(shrink > 0)) { return function (y) { return y; }; }
    var mapped = [0];
    points.slice(1).forEach(function (point, k) {
      mapped.push(mapped[k] + (point - points[k]) * (k % 2 ? shrink : 1) * before / after);
    });
    return function (y) {
      if (y <= 0 || y >= 1) { return (y <= 0 ? 0 : 1) + (y - (y <= 0 ? 0 : 1)) * before / after; }
      var k = 1;
      while (y > points[k]) { k++; }
      return mapped[k - 1] + (y - points[k - 1]) / (points[k] - points[k - 1]) * (mapped[k] - mapped[k - 1]);
    };
  }

  /* Plotly.relayout arguments that make the axes of `plot` held to another's scale show the figure's own
     ranges whole at the plot's present shape (`fit`, from fitHeld), and those that put back the ranges they
     have now (`undo`). */
  function heldRanges(plot) {
    var direct = window.RopeVizDirect;
    var ranges = direct.fitHeld(JSON.parse(plot.dataset.ownRanges || "{}"), direct.placement(plot).axes);
    var fit = {};
    var undo = {};
    Object.keys(ranges).forEach(function (name) {
      var axis = plot.layout[name] || {};
      fit[name + ".range"] = ranges[name];
      undo[name + ".range"] = axis.range ? axis.range.slice() : null;
      undo[name + ".autorange"] = axis.autorange === undefined ? null : axis.autorange;
    });
    return { fit: fit, undo: undo };
  }

  /* The figure's own value at `path` of `node`, or null (Plotly's default) if it has none. */
  function own(node, path) {
    var value = path.split(/[.[\]]+/).filter(Boolean).reduce(function (at, key) {
      return at === undefined || at === null ? undefined : at[key];
    }, node);
    return value === undefined ? null : value;
  }

  /* Plotly.update arguments that place the subplots, paper-anchored annotations and shapes, the legend and
     colour bars by `map`, and those that put back the figure's own values. */
  function placements(plot, map) {
    var full = window.RopeVizDirect.placement(plot);
    var move = { layout: {}, data: {}, traces: [] };
    var undo = { layout: {}, data: {}, traces: [] };
    function same(a, b) {
      return [].concat(a).every(function (value, k) { return Math.abs(value - [].concat(b)[k]) < 1e-9; });
    }
    /* Move what is at `path` of the layout from `value` to where `map` puts it; only what moves. */
    function place(path, value) {
      var to = Array.isArray(value) ? value.map(map) : map(value);
      if (same(to, value)) { return; }
      move.layout[path] = to;
      undo.layout[path] = own(plot.layout, path);
    }
    Object.keys(full.legends).forEach(function (key) {
      if (full.legends[key].yref !== "container") { place(key + ".y", full.legends[key].y); }
    });
    Object.keys(full.axes).forEach(function (key) {
      var item = full.axes[key];
      if (/^yaxis\d*$/.test(key) && !item.overlaying) { place(key + ".domain", item.domain); }
      /* Plotly widens the range of an axis held to another's scale to fit the plot's new shape, and keeps it
         widened: the range the page had goes back with the rest. */
      var anchor = /^[xy]axis\d*$/.test(key) && item.scaleanchor;
      [key, anchor].forEach(function (name) {
        var range = anchor && own(plot.layout, name + ".range");
        if (range) {
          undo.layout[name + ".range"] = range.slice();
          undo.layout[name + ".autorange"] = own(plot.layout, name + ".autorange");
        }
      });
    });
    ["annotations", "shapes"].forEach(function (kind) {
      (full[kind] || []).forEach(function (item, k) {
        if (item.yref !== "paper") { return; }
        (kind === "shapes" ? ["y0", "y1"] : ["y"]).forEach(function (y) { place(kind + "[" + k + "]." + y, item[y]); });
      });
    });
    full.colorbars.forEach(function (bar) {
      if (bar.yref === "container") { return; }
      var y = map(bar.y);
      var len = bar.len;
      if (bar.orientation !== "h" && bar.lenmode === "fraction") {
        var low = bar.y - len * { bottom: 0, middle: 0.5, top: 1 }[bar.yanchor];
        len = map(low + bar.len) - map(low);
        y = map(low) + len * { bottom: 0, middle: 0.5, top: 1 }[bar.yanchor];
      }
      if (same([y, len], [bar.y, bar.len])) { return; }
      move.traces.push(bar.index);
      undo.traces.push(bar.index);
      [["colorbar.y", y], ["colorbar.len", len]].forEach(function (entry) {
        (move.data[entry[0]] = move.data[entry[0]] || []).push(entry[1]);
        (undo.data[entry[0]] = undo.data[entry[0]] || []).push(own(plot.data[bar.index], entry[0]));
      });
    });
    return { move: move, undo: undo };
  }

  /* The figure's own size in its layout, or null (Plotly's default) where it has none; and its `autosize`
     where it has one (Plotly writes it when it resizes a plot to its box, and drops it when given a width). */
  function ownSize(plot) {
    var size = {
      width: plot.layout.width === undefined ? null : plot.layout.width,
      height: plot.layout.height === undefined ? null : plot.layout.height
    };
    if (plot.layout.autosize !== undefined) { size.autosize = plot.layout.autosize; }
    return size;
  }

  /* Resize `plot` to `size`, then place its parts by `changes` ({data, layout, traces}). Plotly places a legend
     with the margins it had before the call that moves it, and then widens the margins to fit it without
     always laying the axes out again: the placements go twice, and then Plotly draws the plot again until its
     margins and axes stay where they are (the plot then looks as any later drawing of it will). */
  function relayOut(plot, size, changes, fit) {
    function place() { return Plotly.update(plot, changes.data, changes.layout, changes.traces); }
    /* With `fit`, axes held to another's scale show the figure's own ranges whole at the new shape. */
    function fitRanges() {
      var layout = heldRanges(plot).fit;
      return Object.keys(layout).length ? Plotly.relayout(plot, layout) : null;
    }
    return Plotly.relayout(plot, size).then(place).then(place).then(fit ? fitRanges : null)
      .then(function () { return settle(plot, 3); });
  }

  /* Have Plotly draw `plot` again until its margins and axes stay where they are (at most `tries` times). */
  function settle(plot, tries) {
    function geometry() { return window.RopeVizDirect.placement(plot).geometry.join(); }
    var before = geometry();
    return Plotly.redraw(plot).then(function () {
      return tries > 1 && geometry() !== before ? settle(plot, tries - 1) : null;
    });
  }

  /* The layout changes that put the two stacked panels of `plot` side by side (rope_viz.figures.slide_layout
     writes them into the payload, with the figure's own values there), if a plot `width` px wide gives each
     a column of MIN_COLUMN_WIDTH, and those that put its own layout back; or null. */
  function sideBySide(plot, width) {
    var wide = JSON.parse(plot.dataset.sideBySide || "null");
    if (!wide || width < 2 * MIN_COLUMN_WIDTH) { return null; }
    var changes = wide.changes;
    var undo = Object.assign({}, wide.own);
    /* Plotly widens the range of an axis held to another's scale to the new shape, and keeps it. */
    Object.keys(plot.layout).forEach(function (name) {
      if (/^[xy]axis\d*$/.test(name) && plot.layout[name].range) {
        undo[name + ".range"] = plot.layout[name].range.slice();
        undo[name + ".autorange"] = own(plot.layout, name + ".autorange");
      }
    });
    return { changes: changes, undo: undo };
  }

  /* Lay `plot` out at `size` ({width, height}, in the plot's own px) as the presenter view does: two stacked
     panels side by side (sideBySide), the gaps between its subplots keeping their height in px (paperMap),
     and axes held to another's scale showing the figure's own ranges whole. Gives at once `own` (its own size)
     and `undo` (filled in as the plot is laid out), which put the layout back (`putBack`), and `done`, a
     promise that settles once the plot is laid out. */
  function layOutAt(plot, size) {
    var undo = { layout: {}, data: {}, traces: [] };
    var wide = size.sideBySide === false ? null : sideBySide(plot, size.width);
    var ownLayoutSize = ownSize(plot);
    /* The panels go side by side at the plot's present size (held, so that Plotly draws it there until its
       margins settle, whatever size its box has by now). */
    var first = null;
    if (wide) {
      var now = window.RopeVizDirect.placement(plot);
      first = Plotly.relayout(plot, Object.assign({ width: now.width, height: now.height }, wide.changes))
        .then(function () { return settle(plot, 3); });
    }
    var done = Promise.resolve(first).then(function () {
      var full = window.RopeVizDirect.placement(plot);
      var domains = Object.keys(full.axes).filter(function (key) {
        return /^yaxis\d*$/.test(key) && !full.axes[key].overlaying;
      }).map(function (key) { return full.axes[key].domain; });
      var changes = placements(plot, paperMap(domains, full.plotHeight, size.height - (full.height - full.plotHeight)));
      /* What the placements move of the side-by-side layout goes back to the figure's own. */
      undo.layout = Object.assign(changes.undo.layout, wide ? wide.undo : {});
      undo.data = changes.undo.data;
      undo.traces = changes.undo.traces;
      return relayOut(plot, { width: size.width, height: size.height }, changes.move, true);
    });
    return { own: ownLayoutSize, undo: undo, done: done };
  }

  /* Lay the plot out for the screen the figure now covers: the largest plot at which the controls fit. */
  function layOut(presented) {
    var root = presented.root, plot = presented.plot;
    var width = root.clientWidth, height = root.clientHeight;
    var stacked = width < height;
    var size = null;
    presented.screen = [width, height];
    root.classList.toggle("rope-viz-presenting-stacked", stacked);
    function apply(next) {
      size = next;
      root.style.setProperty("--rope-viz-scale", String(size.scale));
      root.style.setProperty("--rope-viz-zoom", String(size.zoom));
      root.style.setProperty("--rope-viz-plot-width", size.screenWidth + "px");
      root.style.setProperty("--rope-viz-plot-height", size.screenHeight + "px");
      plot.style.width = size.width + "px";
      plot.style.height = size.height + "px";
      return root.scrollHeight <= root.clientHeight;
    }
    var narrowest = Number(plot.dataset.narrowest) || figures.narrowestPlot;
    var phone = stacked && width < figures.narrowestPlot && narrowest < figures.narrowestPlot;
    var sizes = phone ? [phoneSize(width, presented.pageHeight, narrowest)] :
      (stacked ? STACKED_PLOT_SHARES : PLOT_SHARES).map(function (share) {
        return stacked ? stackedSize(width, height, presented.pageHeight, share, figures.narrowestPlot) :
          presenterSize(width, height, share, true);
      });
    if (!sizes.some(apply) && stacked) { apply(sizes[0]); }
    plot.dataset.scale = String(size.scale);
    var laid = layOutAt(plot, size);
    presented.undo = laid.undo;
    return laid.done;
  }

  function enter(root, button) {
    /* Another figure presented leaves first: out of full screen, since a second element taken full screen
       would stack on the first, which would stay full screen when the second leaves. */
    if (current) {
      leave().then(function () { enter(root, button); });
      return;
    }
    var plot = root.querySelector(".rope-viz-plot");
    var presented = current = {
      root: root, button: button, plot: plot, fallback: false,
      styles: [root.getAttribute("style"), plot.getAttribute("style")], size: ownSize(plot), undo: null,
      scroll: [window.scrollX, window.scrollY], pageHeight: window.RopeVizDirect.placement(plot).height,
      screen: null
    };
    button.textContent = "Leave full screen";
    root.classList.add("rope-viz-presenting");
    var request = root.requestFullscreen ? root.requestFullscreen() : Promise.reject(new Error("no Fullscreen API"));
    request.then(function () { presented.fullscreen = true; }, function () {
      /* No full screen (an old browser, or a frame that does not allow it): cover the window instead, in the
         top layer, above the page's own stacking contexts. */
      presented.fallback = true;
      if (root.showPopover) {
        root.popover = "manual";
        root.showPopover();
      }
    }).then(function () {
      return current === presented ? layOut(presented) : null;
    }).then(function () {
      if (current !== presented) { return; }
      (root.querySelector("input[type=range]") || button).focus();
      root.dataset.presented = "true";
    });
  }

  /* Leave the presenter view; the promise settles once the figure is back in the page. */
  function leave() {
    if (!current) { return Promise.resolve(); }
    var left = current;
    current = null;
    /* The page comes back where it was (leaving full screen, or the figure coming back into the page's
       flow, may scroll it). */
    var back = function () { window.scrollTo(left.scroll[0], left.scroll[1]); };
    /* The figure's page styles and layout go back once it is out of full screen: until then it still covers
       the screen, and a plot laid out at the page's width in it would be laid out again on the way out. */
    function restore() {
      if (left.fallback && left.root.hidePopover) {
        left.root.hidePopover();
        left.root.removeAttribute("popover");
      }
      left.root.classList.remove("rope-viz-presenting", "rope-viz-presenting-stacked");
      [left.root, left.plot].forEach(function (element, k) {
        if (left.styles[k] === null) { element.removeAttribute("style"); } else { element.setAttribute("style", left.styles[k]); }
      });
      delete left.root.dataset.presented;
      delete left.plot.dataset.scale;
      left.button.textContent = "Present";
      left.button.focus({ preventScroll: true });
      back();
      relayOut(left.plot, left.size, left.undo || { data: {}, layout: {}, traces: [] }).then(function () {
        back();
        left.root.dataset.left = String(Number(left.root.dataset.left || 0) + 1);
      });
    }
    if (document.fullscreenElement === left.root) {
      return document.exitFullscreen().then(restore, restore);
    }
    restore();
    return Promise.resolve();
  }

  /* Escape leaves. In full screen the browser leaves on Escape by itself, and tells with "fullscreenchange";
     some (headless chromium) do not, so the key is handled here too. */
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && current) { leave(); }
  });
  document.addEventListener("fullscreenchange", function () {
    if (current && current.fullscreen && document.fullscreenElement !== current.root) { leave(); }
  });

  /* A screen that changes its size (a phone or tablet turned, a window resized without full screen) gets the
     figure laid out again, from the page's layout, once it has stopped changing. */
  var resizing = null;
  function screenChanged(presented) {
    return presented.screen[0] !== presented.root.clientWidth || presented.screen[1] !== presented.root.clientHeight;
  }
  function layOutAgain() {
    var presented = current;
    if (!presented || presented.root.dataset.presented !== "true" || !screenChanged(presented)) { return; }
    delete presented.root.dataset.presented;
    relayOut(presented.plot, presented.size, presented.undo).then(function () {
      return current === presented ? layOut(presented) : null;
    }).then(function () {
      if (current !== presented) { return; }
      presented.root.dataset.presented = "true";
      /* The screen changed again meanwhile (a turn is reported in several steps). */
      if (screenChanged(presented)) { layOutAgain(); }
    });
  }
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(layOutAgain, 200);
  });

  function addButton(root) {
    if (root.querySelector(".rope-viz-present")) { return; }
    var row = document.createElement("p");
    row.className = "rope-viz-present";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Present";
    button.title = "Show this figure full screen, scaled for a projector (Escape leaves)";
    button.addEventListener("click", function () {
      if (current && current.root === root) { leave(); } else { enter(root, button); }
    });
    row.appendChild(button);
    root.querySelector(".rope-viz-readout").after(row);
  }

  if (figures && figures.extend && Plotly) { figures.extend(addButton); }
  /* Pure helpers, unit-tested on their own (tests/js/). */
  window.RopeVizPresent = {
    presenterSize: presenterSize, stackedSize: stackedSize, phoneSize: phoneSize, paperMap: paperMap
  };
  /* For the lecture deck, which lays its slides' plots out as this view does. */
  window.RopeVizPresent.layOutAt = layOutAt;
  window.RopeVizPresent.heldRanges = heldRanges;
  window.RopeVizPresent.putBack = function (plot, laid) { return relayOut(plot, laid.own, laid.undo); };
})();
