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
    window.addEventListener("beforeprint", function () { slidesOn(false); });
    window.addEventListener("afterprint", function () { slidesOn(true); });
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
       longer and scroll): laid out at the column's width over the scale that fits its own height there, and
       scaled by a CSS transform (which Plotly's hover follows). */
    function fit(slide) {
      var plot = slide.querySelector(".rope-viz-plot");
      if (!plot || !plot.layout || !plot.layout.height) { return; }
      var column = slide.querySelector(".rope-viz-slide-plot-area").getBoundingClientRect();
      var bottom = Math.min(column.bottom, slide.getBoundingClientRect().bottom - slide.clientHeight / 100);
      var scale = (bottom - column.top) / plot.layout.height;
      var width = Math.floor(column.width / scale) + "px";
      plot.style.setProperty("--rope-viz-deck-scale", String(scale));
      if (plot.style.width !== width) {
        plot.style.width = width;
        Plotly.Plots.resize(plot);
      }
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
      function press() {
        var sceneButton = figure.querySelectorAll(".rope-viz-scenes button")[Number(slide.dataset.scene)];
        if (sceneButton && slides[current] === slide) {
          fit(slide);
          sceneButton.click();
        }
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

  function init() {
    var deck = document.querySelector(".rope-viz-deck");
    if (deck) { start(deck); }
  }

  window.RopeVizDeck = { slideIndex: slideIndex, keyAction: keyAction };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
