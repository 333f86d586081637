/* rope-viz: the lecture deck (rope_viz.lecture writes it). Shows its slides one at a time, filling the window,
 * and moves between them with the keys a presentation clicker sends; the slide number is in the URL
 * (#slide-7); B or "." blanks the screen. Each figure appears once on the page: a slide that shows it moves
 * it onto itself and presses its scene's button. Without this script the page is a list of slides.
 */
(function () {
  "use strict";

  /* The slide index that a URL's fragment names ("#slide-7": 6); anything else, or a number past the
     last of `count` slides, names the first. */
  function slideIndex(hash, count) {
    var match = /^#slide-([1-9]\d{0,5})$/.exec(hash);
    var number = match ? Number(match[1]) : 1;
    return number <= count ? number - 1 : 0;
  }

  /* What a key does on the deck: 1 or -1 (next or previous slide), "first", "last", "blank", or null
     (the page's own). `target` is "control" for a slider (the deck has no text field), whose arrow keys,
     Home and End move it, and "button" for a button or link, which Space presses; Page Down and Page Up
     always change the slide, and B and "." always blank it (what a clicker's keys send). */
  function keyAction(key, shift, target) {
    if (key === "PageDown") { return 1; }
    if (key === "PageUp") { return -1; }
    if (key === " ") { return target === "button" ? null : (shift ? -1 : 1); }
    if (key === "b" || key === "B" || key === ".") { return "blank"; }
    if (target === "control") { return null; }
    return { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" }[key] || null;
  }

  function targetKind(element) {
    if (!element || !element.matches) { return null; }
    if (element.matches("input, select, textarea, [contenteditable]")) { return "control"; }
    return element.matches("button, a[href], summary") ? "button" : null;
  }

  function start(deck) {
    var slides = Array.prototype.slice.call(deck.querySelectorAll(".rope-viz-slide"));
    var current = -1;
    /* The deck's slides only: the figures' own state stays out of a deck's URL (each slide sets it), and is
       dropped before the figure script would restore it. */
    history.replaceState(history.state, "", window.location.pathname + window.location.hash);

    /* The deck leaves the article for the page's top level, so that it can fill the window over the theme's
       columns; it goes back for printing, where the page is a list of slides (before the figure script
       measures each plot for the paper: this listener comes first). */
    var home = document.createComment("rope-viz-deck");
    var classes = document.documentElement.classList;
    function slidesOn(on) {
      if (on) { document.body.appendChild(deck); } else { home.after(deck); }
      classes.toggle("rope-viz-deck-on", on);
    }
    deck.before(home);
    slidesOn(true);
    /* Printed, a plot drawn on a slide not shown (as wide as the slide) is laid out at the width of its box
       in the page, as in its chapter, its axes held to another's scale showing the figure's own ranges whole
       (Plotly kept them widened to the slide's shape), and one laid out for a slide keeps that layout, at the
       page's text size: the figure script then scales both to the paper. Plotly draws a new layout at once.
       After, they take their own width and ranges again. */
    var printed = [];
    window.addEventListener("beforeprint", function () {
      slidesOn(false);
      printed = Array.prototype.slice.call(deck.querySelectorAll(".rope-viz-plot")).filter(function (plot) {
        return plot.layout && !plot.layout.width && !fitted.has(plot) && plot.clientWidth > 0;
      }).map(function (plot) {
        Plotly.relayout(plot, { width: plot.clientWidth });
        var ranges = window.RopeVizPresent.heldRanges(plot);
        if (Object.keys(ranges.fit).length) { Plotly.relayout(plot, ranges.fit); }
        return { plot: plot, undo: ranges.undo };
      });
    });
    window.addEventListener("afterprint", function () {
      slidesOn(true);
      printed.forEach(function (entry) {
        entry.undo.width = null;
        Plotly.relayout(entry.plot, entry.undo);
      });
      printed = [];
    });
    deck.tabIndex = -1;

    var nav = document.createElement("nav");
    nav.className = "rope-viz-deck-nav";
    nav.setAttribute("aria-label", "Slides");
    var previous = button("Previous", function () { go(current - 1, true); });
    var counter = document.createElement("p");
    counter.className = "rope-viz-deck-counter";
    counter.setAttribute("aria-live", "polite");
    var next = button("Next", function () { go(current + 1, true); });
    nav.append(previous, counter, next);
    deck.appendChild(nav);

    var blank = document.createElement("div");
    blank.className = "rope-viz-deck-blank";
    blank.hidden = true;
    blank.addEventListener("click", function () { blank.hidden = true; });
    deck.appendChild(blank);

    function button(text, onClick) {
      var element = document.createElement("button");
      element.type = "button";
      element.textContent = text;
      element.addEventListener("click", onClick);
      return element;
    }

    /* The plot fills the slide's left column down to the window's bottom (the text beside it may run
       longer and scroll), laid out as the presenter view lays it out (two stacked panels side by side), at
       the column's size over the scale, and scaled by a CSS transform (which Plotly's hover follows). Per
       plot: the size it is laid out at, and what puts its own layout back. */
    var fitted = new WeakMap();
    /* The presenter view's script runs after this one and the figures' (all deferred, which run before
       DOMContentLoaded), and a figure may be drawn before it runs. */
    var scriptsRun = new Promise(function (resolve) {
      if (window.RopeVizPresent || document.readyState === "complete") {
        resolve();
      } else {
        document.addEventListener("DOMContentLoaded", resolve, { once: true });
        window.addEventListener("load", resolve, { once: true });
      }
    });
    function fit(slide) {
      return scriptsRun.then(function () { return fitNow(slide); });
    }
    function fitNow(slide) {
      var plot = slide.querySelector(".rope-viz-plot");
      var present = window.RopeVizPresent;
      if (!plot || !plot.layout || !present || !present.layOutAt) { return null; }
      var column = slide.querySelector(".rope-viz-slide-plot-area").getBoundingClientRect();
      var bottom = Math.min(column.bottom, slide.getBoundingClientRect().bottom - slide.clientHeight / 100);
      /* The presenter view's scale, but the plot no shorter than that view lays it out (540 px, a layout
         every figure is checked to fit) and no narrower than the page lays a plot out (the figures'
         narrowestPlot: the widest, six heatmaps with a number in every cell, need it): on a screen 1080 px high the
         plot's text is 1.7 times the page's; on one of 4:3, where the column is narrower, less. */
      var view = present.presenterSize(window.innerWidth, window.innerHeight, 1);
      var scale = Math.min(view.scale, (bottom - column.top) / view.height,
        column.width / window.RopeVizFigures.narrowestPlot);
      var size = { width: Math.floor(column.width / scale), height: Math.floor((bottom - column.top) / scale) };
      plot.style.setProperty("--rope-viz-deck-scale", String(scale));
      plot.dataset.scale = String(scale);
      var was = fitted.get(plot) || { size: null, laid: null, done: Promise.resolve() };
      if (was.size && was.size.width === size.width && was.size.height === size.height) { return was.done; }
      var now = { size: size, laid: null };
      fitted.set(plot, now);
      /* From the figure's own layout at the new width (the page's layout, but for its width: a plot first
         drawn on a slide is as wide as the slide, and its legends take fewer rows there). */
      now.done = was.done.then(function () {
        plot.style.width = size.width + "px";
        return was.laid ? present.putBack(plot, was.laid) : Plotly.Plots.resize(plot);
      }).then(function () {
        plot.style.height = size.height + "px";
        now.laid = present.layOutAt(plot, size);
        return now.laid.done;
      });
      return now.done;
    }

    /* Press the scene's button once the figure is drawn (its buttons are there from the start, but a
       state can be drawn only over the plot). */
    function showScene(slide) {
      var figure = document.getElementById(slide.dataset.figure || "");
      if (!figure) { return; }
      var slot = slide.querySelector(".rope-viz-slide-figure");
      if (figure.parentNode !== slot) {
        slot.replaceChildren(figure);
      }
      // Its readout's room made now, before the slide is painted, not when the page is next idle.
      figure.dispatchEvent(new CustomEvent("rope-viz:reserve"));
      function press() {
        if (slides[current] !== slide) { return; }
        fit(slide).then(function () {
          var sceneButton = figure.querySelectorAll(".rope-viz-scenes button")[Number(slide.dataset.scene)];
          if (sceneButton && slides[current] === slide) {
            sceneButton.click();
            slide.dataset.laidOut = "true";
          }
        });
      }
      if (figure.dataset.ready === "true") {
        press();
      } else {
        figure.dataset.drawFirst = "true";  // the figure script draws it before the others
        figure.addEventListener("rope-viz:ready", press, { once: true });
      }
    }

    /* Show slide `index` (kept within the deck); `push` adds it to the browser's history. */
    function go(index, push) {
      index = Math.max(0, Math.min(slides.length - 1, index));
      var hash = "#slide-" + (index + 1);
      if (window.location.hash !== hash) {
        history[push ? "pushState" : "replaceState"](history.state, "", hash);
      }
      if (index === current) { return; }
      var left = slides[current];
      current = index;
      slides.forEach(function (slide, k) { slide.classList.toggle("rope-viz-slide-current", k === index); });
      if (left && left.contains(document.activeElement)) { deck.focus(); }
      counter.textContent = "Slide " + (index + 1) + " of " + slides.length;
      previous.disabled = index === 0;
      next.disabled = index === slides.length - 1;
      showScene(slides[index]);
    }

    document.addEventListener("keydown", function (event) {
      if (!blank.hidden) {
        blank.hidden = true;
        event.preventDefault();
        return;
      }
      if (event.ctrlKey || event.altKey || event.metaKey) { return; }
      var action = keyAction(event.key, event.shiftKey, targetKind(event.target));
      if (action === null) { return; }
      event.preventDefault();
      if (action === "blank") {
        blank.hidden = false;
      } else {
        go(action === "first" ? 0 : action === "last" ? slides.length - 1 : current + action, true);
      }
    });
    window.addEventListener("resize", function () { if (slides[current]) { fit(slides[current]); } });
    function fromUrl() { go(slideIndex(window.location.hash, slides.length), false); }
    window.addEventListener("popstate", fromUrl);
    window.addEventListener("hashchange", fromUrl);
    fromUrl();
  }

  /* The deck needs a window wider than tall and at least 1,000 px wide (a projector, a laptop): its plot
     column then lays a plot out at least as wide as a chapter's page does. In a narrower window (a phone, a
     tablet held upright) the page stays the list of slides, each figure fitted to the page as in a chapter;
     decided once, when the page opens. */
  var DECK_WINDOW = "(min-width: 1000px) and (orientation: landscape)";

  function init() {
    var deck = document.querySelector(".rope-viz-deck");
    if (deck && window.matchMedia(DECK_WINDOW).matches) { start(deck); }
  }

  window.RopeVizDeck = { slideIndex: slideIndex, keyAction: keyAction, DECK_WINDOW: DECK_WINDOW };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
