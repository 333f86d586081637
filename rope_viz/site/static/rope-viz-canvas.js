/* rope-viz: canvas layers for the direct drawing of a slider step (rope-viz-direct.js).
 *
 * Some parts of a figure are hundreds of SVG elements: a heatmap with a number in every cell, a cloud of
 * markers. Changing them element by element makes chromium restyle, lay out and repaint each one, which
 * alone can take longer than a frame. While a slider moves, such a part is painted instead on one <canvas>,
 * placed in a <foreignObject> at the part's own place in the SVG (so that whatever Plotly draws above it
 * stays above it), and its own elements are hidden. When Plotly next draws the figure, the canvases go and
 * the elements come back.
 *
 * The helpers below paint what an SVG element would: a marker with the element's path and style, text
 * with a text element's font, anchor and line positions. Nothing is computed here: the values come from
 * the caller.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";

  /* The canvas layers of one figure, by key (a trace or an axis, and what it shows).

     A step draws on its layers first and puts them on the page after (`show`): a canvas that is not yet on
     the page takes its font without chromium bringing the page's styles up to date, once per canvas. When
     Plotly draws, the layers are hidden, not removed, and serve again at the next step. Layers and the
     elements they cover are hidden with `visibility`, which chromium repaints without laying anything out
     again. */
  function layers() {
    var all = {};

    function sameBox(a, b) {
      return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
    }

    /* Canvas pixels per unit of the plot: the screen's pixels per CSS pixel, times the scale at which the plot
       is shown: `data-scale` in the presenter view (rope-viz-present.js) and on a deck's slide, `data-fit` on
       a screen narrower than the plot's layout (rope-viz-figures.js). A scale above 1 is rounded up (a canvas
       scaled down by the browser looks closer to the SVG text beside it than one scaled up); below 1 the
       canvas has the screen's pixels, not up to ten times as many. */
    function resolution(parent) {
      var plot = parent.closest(".rope-viz-plot");
      var scale = plot && Number(plot.dataset.scale || plot.dataset.fit) || 1;
      return (window.devicePixelRatio || 1) * (scale < 1 ? scale : Math.ceil(scale));
    }

    function create(parent, before, box) {
      var ratio = resolution(parent);
      var node = document.createElementNS(SVG, "foreignObject");
      node.setAttribute("x", box.x);
      node.setAttribute("y", box.y);
      node.setAttribute("width", box.width);
      node.setAttribute("height", box.height);
      node.setAttribute("class", "rope-viz-canvas");
      node.style.pointerEvents = "none";
      var canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(box.width * ratio));
      canvas.height = Math.max(1, Math.round(box.height * ratio));
      canvas.style.cssText = "display:block;width:" + box.width + "px;height:" + box.height + "px";
      node.appendChild(canvas);
      return {
        node: node, parent: parent, before: before, box: box, ratio: ratio, context: canvas.getContext("2d"),
        covered: [], hidden: [], used: false
      };
    }

    /* A cleared 2D context on the layer `key`: a canvas covering `box` ({x, y, width, height} in the
       coordinates of `parent`), to sit in `parent` before `before` (null: at the end). The elements in
       `covered` are hidden while the layer shows. Coordinates on the context are those of `parent`. */
    function context(key, parent, before, box, covered) {
      var layer = all[key];
      var moved = layer && (layer.parent !== parent || !sameBox(layer.box, box));
      if (moved || (layer && layer.ratio !== resolution(parent))) {
        remove(key);
        layer = null;
      }
      if (!layer) { layer = all[key] = create(parent, before, box); }
      layer.before = before;
      layer.covered = covered;
      layer.used = true;
      var drawing = layer.context;
      drawing.setTransform(layer.ratio, 0, 0, layer.ratio, 0, 0);
      drawing.clearRect(0, 0, box.width, box.height);
      drawing.translate(-box.x, -box.y);
      drawing.globalAlpha = 1;
      return drawing;
    }

    /* Put the layers drawn on since Plotly last drew on the page, in their place, over what they cover. */
    function show() {
      Object.keys(all).forEach(function (key) {
        var layer = all[key];
        if (!layer.used) { return; }
        var before = layer.before === layer.node ? layer.node.nextSibling : layer.before;
        before = before && before.parentNode === layer.parent ? before : null;
        if (layer.node.parentNode !== layer.parent || layer.node.nextSibling !== before) {
          layer.parent.insertBefore(layer.node, before);
        }
        if (layer.node.style.visibility) { layer.node.style.visibility = ""; }
        layer.covered.forEach(function (element) {
          var known = layer.hidden.some(function (entry) { return entry[0] === element; });
          if (!known) {
            layer.hidden.push([element, element.style.visibility]);
            element.style.visibility = "hidden";
          }
        });
      });
    }

    function uncover(layer) {
      layer.hidden.forEach(function (entry) { entry[0].style.visibility = entry[1]; });
      layer.hidden = [];
      layer.used = false;
    }

    /* Remove layer `key`, if there is one, and show the elements it covered. */
    function remove(key) {
      var layer = all[key];
      if (!layer) { return; }
      layer.node.remove();
      uncover(layer);
      delete all[key];
    }

    /* Hide every layer and show the elements they covered (Plotly has drawn the figure anew). */
    function clear() {
      Object.keys(all).forEach(function (key) {
        var layer = all[key];
        if (!layer.used) { return; }
        layer.node.style.visibility = "hidden";
        uncover(layer);
      });
    }

    return { context: context, show: show, remove: remove, clear: clear };
  }

  /* ---- painting what an SVG element would paint ---- */

  var paths = {};

  function pathOf(d) {
    if (!(d in paths)) { paths[d] = new Path2D(d); }
    return paths[d];
  }

  function opacity(text) {
    var value = text === "" || text === undefined ? 1 : Number(text);
    return isFinite(value) ? value : 1;
  }

  function pixels(text) {
    var value = parseFloat(text);
    return isFinite(value) ? value : 0;
  }

  /* How a marker element is painted, from its inline style (Plotly writes every marker's style inline);
     null if a canvas cannot paint it the same way (a translucent marker with an outline: SVG blends its
     fill and outline as one). */
  function markerStyle(element) {
    var style = element.style;
    var paint = {
      opacity: opacity(style.opacity),
      fill: style.fill && style.fill !== "none" ? style.fill : null,
      fillOpacity: opacity(style.fillOpacity),
      stroke: style.stroke && style.stroke !== "none" ? style.stroke : null,
      strokeOpacity: opacity(style.strokeOpacity),
      strokeWidth: pixels(style.strokeWidth)
    };
    if (!paint.stroke || paint.strokeWidth === 0) { paint.stroke = null; }
    if (paint.opacity < 1 && paint.fill && paint.stroke) { return null; }
    return paint;
  }

  /* Paint path `d` (a marker symbol around the origin) at (x, y) with `paint` (from markerStyle), its fill
     colour replaced by `fill` if given. */
  function drawMarker(drawing, d, x, y, paint, fill) {
    var path = pathOf(d);
    drawing.save();
    drawing.translate(x, y);
    var color = fill || paint.fill;
    if (color) {
      drawing.globalAlpha = paint.opacity * paint.fillOpacity;
      drawing.fillStyle = color;
      drawing.fill(path);
    }
    if (paint.stroke) {
      drawing.globalAlpha = paint.opacity * paint.strokeOpacity;
      drawing.strokeStyle = paint.stroke;
      drawing.lineWidth = paint.strokeWidth;
      drawing.stroke(path);
    }
    drawing.restore();
  }

  var ANCHORS = { start: "left", middle: "center", end: "right" };

  /* How a <text> element is painted: font, anchor, colour; null if it is turned or scaled (only
     translations are followed). */
  function textStyle(element) {
    var style = element.style;
    var anchor = ANCHORS[element.getAttribute("text-anchor") || "start"];
    var transform = element.getAttribute("transform") || "";
    var size = parseFloat(style.fontSize);
    if (!anchor || !isFinite(size) || !/^(\s*translate\([^)]*\))*\s*$/.test(transform)) { return null; }
    return {
      font: [style.fontStyle || "normal", style.fontWeight || "normal", style.fontSize, style.fontFamily]
        .join(" "),
      size: size,
      align: anchor,
      fill: style.fill,
      opacity: opacity(style.fillOpacity)
    };
  }

  function attribute(element, name, otherwise) {
    var value = element.getAttribute(name);
    return value === null ? otherwise : Number(value);
  }

  /* Where the lines of a <text> element sit, before its transform: [{x, y}] of each baseline start. Plotly
     writes a label of several lines as one <tspan class="line"> per line, with x, y and dy (in em); null
     for any other markup (superscripts, links). */
  function textLines(element, size) {
    var x = attribute(element, "x", 0);
    var y = attribute(element, "y", 0);
    if (element.getAttribute("dx") || element.getAttribute("dy")) { return null; }
    var spans = Array.prototype.slice.call(element.children);
    if (spans.length === 0) { return [{ x: x, y: y }]; }
    var lines = spans.map(function (span) {
      var shift = /^(-?[\d.]+)em$/.exec(span.getAttribute("dy") || "0em");
      var plain = span.tagName === "tspan" && span.getAttribute("class") === "line" &&
        !span.children.length && !span.getAttribute("style") && shift;
      if (!plain) { return null; }
      return { x: attribute(span, "x", x), y: attribute(span, "y", y) + Number(shift[1]) * size };
    });
    return lines.every(Boolean) ? lines : null;
  }

  var fonts = new WeakMap();  // the font last set on each context

  /* Paint the lines of text `words` at `lines` (from textLines), with `paint` (from textStyle), its colour
     replaced by `fill` if given. */
  function drawText(drawing, lines, words, paint, fill) {
    // Setting a font makes chromium bring the page's styles up to date first: set each font once.
    if (fonts.get(drawing) !== paint.font) {
      drawing.font = paint.font;
      fonts.set(drawing, paint.font);
    }
    drawing.textAlign = paint.align;
    drawing.textBaseline = "alphabetic";
    drawing.globalAlpha = paint.opacity;
    drawing.fillStyle = fill || paint.fill;
    for (var k = 0; k < lines.length && k < words.length; k++) {
      drawing.fillText(words[k], lines[k].x, lines[k].y);
    }
    drawing.globalAlpha = 1;
  }

  window.RopeVizCanvas = {
    layers: layers,
    markerStyle: markerStyle,
    drawMarker: drawMarker,
    textStyle: textStyle,
    textLines: textLines,
    drawText: drawText
  };
})();
