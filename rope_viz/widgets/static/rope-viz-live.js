/* rope-viz live figure: the site's figure drawing, fed by the kernel (rope_viz.widgets.live.LiveFigure).
 *
 * The widget's model carries the initial figure and its sliders (label, value texts, starting index). The
 * drawing code and plotly.js come once per kernel from the figure library widget (FigureLibrary), which puts
 * them on the page; every figure waits for them here. A slider move asks the kernel for the state at the new
 * slider indices ({type: "state"}); the kernel answers with the state, which the site's script draws straight
 * into the SVG. States already seen are kept, so going back over a drag needs no kernel at all.
 */

/* How long a state may take before the figure says the kernel is not answering. */
const ANSWER_TIMEOUT_MS = 8000;
/* States kept per figure view. */
const KEPT_STATES = 256;
/* Questions to the kernel on their way at once. */
const MAX_QUESTIONS = 3;
/* Moves drawn from states already here are told to the kernel this long after the last one. */
const POSITION_DELAY_MS = 150;
/* A drag asks ahead for the states along its slider, the kernel's `ahead` (MAX_STATES_AHEAD) at a time, ... */
/* ... as soon as fewer known states lie ahead of the pointer than it crosses in AHEAD_EVENTS input events
   (a kernel round trip is a few of them), and never fewer than AHEAD_MARGIN. */
const AHEAD_EVENTS = 4;
const AHEAD_MARGIN = 6;

function figureLibrary() {
  const registry = (globalThis.__ropeVizLibrary ??= {});
  if (registry.figures) {
    return Promise.resolve(registry.figures);
  }
  registry.ready ??= new Promise((resolve) => {
    registry.resolve = resolve;
  });
  return registry.ready;
}

function element(tag, attributes, text) {
  const node = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, value));
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

/* How many figures this page has made, for their element ids. Kept on the page, not in this module: each
   widget may run its own copy of the module, and two figures with one id would share their labels. */
function nextFigureNumber() {
  globalThis.__ropeVizLiveFigures = (globalThis.__ropeVizLiveFigures ?? 0) + 1;
  return globalThis.__ropeVizLiveFigures;
}

/* JupyterLab and Notebook 7 read every key press on the page before it reaches its target (a listener on the
   document, in the capture phase) and take arrow keys for moving between cells, so the sliders would never
   see them. Keys pressed on a slider of a live figure stop at the window instead, before the document's
   listeners run; the slider's own handling of the key (its default action) is untouched. */
const SLIDER_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);

function keepSliderKeys() {
  if (globalThis.__ropeVizSliderKeys) {
    return;
  }
  globalThis.__ropeVizSliderKeys = true;
  window.addEventListener(
    "keydown",
    (event) => {
      const target = event.target;
      if (
        SLIDER_KEYS.has(event.key) &&
        target instanceof HTMLInputElement &&
        target.type === "range" &&
        target.closest("figure.rope-viz-live")
      ) {
        event.stopPropagation();
      }
    },
    true,
  );
}

/* What a figure's views share, per widget model: the states already seen and where the sliders are. A
   notebook that draws a cell again (JupyterLab redraws cells scrolled far out of view) or shows the widget
   twice then starts from there, not from the first state. */
const memory = (globalThis.__ropeVizLiveMemory ??= new WeakMap());

/* The same markup as the site's figures (rope_viz.figures.static.SiteFigure.to_html), sliders at `start`. */
function figureMarkup(model, start) {
  const ident = `rope-viz-live-${nextFigureNumber()}`;
  const title = model.get("title");
  const root = element("figure", {
    class: "rope-viz-demo rope-viz-live", id: ident, "aria-label": title, "aria-describedby": `${ident}-readout`,
  });
  // JupyterLab and Notebook 7 would take arrow keys for moving between cells: they belong to the sliders.
  root.dataset.lmSuppressShortcuts = "true";
  const controls = element("div", { class: "rope-viz-controls" });
  model.get("controls").forEach((control, k) => {
    const inputId = `${ident}-${control.name}`;
    const text = control.texts[start[k]];
    const row = element("div", { class: "rope-viz-control" });
    row.append(
      element("label", { for: inputId }, control.label),
      element("input", {
        type: "range", id: inputId, "data-control": String(k), min: "0", max: String(control.texts.length - 1),
        step: "1", value: String(start[k]), "aria-valuetext": text,
      }),
      element("output", { for: inputId, "aria-hidden": "true" }, text),
    );
    controls.append(row);
  });
  root.append(
    controls,
    element("div", { class: "rope-viz-plot" }),
    element("p", { class: "rope-viz-readout", id: `${ident}-readout`, "aria-live": "polite" }, model.get("readout")),
    element("p", { class: "rope-viz-status", role: "status" }),
  );
  return root;
}

function render({ model, el }) {
  keepSliderKeys();
  const AHEAD = model.get("ahead");
  const controls = model.get("controls");
  if (!memory.has(model)) {
    memory.set(model, { kept: new Map(), indices: controls.map((control) => control.default) });
  }
  const remembered = memory.get(model);
  const start = remembered.indices;
  const root = figureMarkup(model, controls.map((control) => control.default));
  el.append(root);
  const status = root.querySelector(".rope-viz-status");
  const kept = remembered.kept;
  const waiting = new Map();
  let handle = null;
  let alive = true;

  function keep(key, state) {
    kept.delete(key);
    kept.set(key, state);
    if (kept.size > KEPT_STATES) {
      kept.delete(kept.keys().next().value);
    }
  }

  /* Send a message to the kernel; a view that left the page, or a widget whose kernel has gone (its
     connection refuses to send), sends nothing. */
  function tell(content) {
    if (!alive) {
      return;
    }
    try {
      model.send(content);
    } catch {
      // the widget's comm is closed: its kernel restarted or shut down
      status.textContent = "The kernel has gone: run this cell again to move the figure.";
      root.dataset.stale = "true";
    }
  }

  function answered(key, state) {
    keep(key, state);
    status.textContent = "";
    delete root.dataset.stale;
    const entry = waiting.get(key);
    if (!entry) {
      return false;
    }
    waiting.delete(key);
    clearTimeout(entry.timer);
    entry.callbacks.forEach((callback) => callback.resolve(state));
    return true;
  }

  function onMessage(message) {
    if (!message || !alive) {
      return;
    }
    if (message.type === "states") {
      aheadInFlight = false;
      message.entries.forEach(([key, state]) => answered(key, state));
      warmNext();
    } else if (message.type === "state") {
      if (answered(message.key, message.state)) {
        askNeighbours();
      } else if (message.pushed && handle) {
        handle.show(message.key, message.state);
      }
    } else if (message.type === "indices" && handle) {
      handle.setIndices(message.indices);
    }
  }
  model.on("msg:custom", onMessage);
  let shownViews = 0;
  function onState() {
    if (handle) {
      handle.show(`view-${++shownViews}`, model.get("state"));
    }
  }
  model.on("change:state", onState);

  /* Ask the kernel for a state unless it is here or on its way. Up to MAX_QUESTIONS may be on their way at
     once, so that a move made while the kernel answers an earlier one is asked for at once, not after. */
  function ask(indices, current, force) {
    const key = indices.join(",");
    if (kept.has(key) || waiting.has(key)) {
      return key;
    }
    if (!force && waiting.size >= MAX_QUESTIONS) {
      return null;
    }
    const entry = { callbacks: [] };
    entry.timer = setTimeout(() => {
      status.textContent =
        "The kernel is not answering: run this cell again (or restart the kernel) to move the figure.";
      root.dataset.stale = "true";
      waiting.delete(key);
      entry.callbacks.forEach((callback) => callback.reject(new Error("no answer from the kernel")));
    }, ANSWER_TIMEOUT_MS);
    waiting.set(key, entry);
    if (current) {
      clearTimeout(positionTimer);
    }
    tell({ type: "state", key, indices, current });
    return key;
  }

  /* The kernel learns where the sliders are from its questions; after moves drawn from states already
     here, it is told once they rest (every message costs the page a kernel busy/idle round). */
  let positionTimer = null;
  function tellPosition(indices) {
    clearTimeout(positionTimer);
    positionTimer = setTimeout(() => tell({ type: "position", indices }), POSITION_DELAY_MS);
  }

  function sliderIndices() {
    return Array.from(root.querySelectorAll("input[type=range]"), (input) => Number(input.value));
  }

  /* While the pointer drags slider k, the kernel is asked for the states along it ahead of the pointer
     (AHEAD at a time, in the direction of the drag), so that most steps of a drag are drawn from states
     already here. One such question is on its way at a time, and always after the question about the
     state under the pointer, which the kernel therefore answers first. */
  let aheadInFlight = false;
  let lastIndex = null;
  let speed = 0;  // slider steps per input event during this drag, smoothed
  function askAhead(k, direction) {
    if (aheadInFlight) {
      return;
    }
    const here = sliderIndices();
    const top = Number(root.querySelectorAll("input[type=range]")[k].max);
    const known = (index) => {
      const near = here.slice();
      near[k] = index;
      return kept.has(near.join(",")) || waiting.has(near.join(","));
    };
    const margin = Math.max(AHEAD_MARGIN, Math.ceil(AHEAD_EVENTS * speed));
    let next = here[k] + direction;
    while (next >= 0 && next <= top && known(next) && Math.abs(next - here[k]) < margin) {
      next += direction;
    }
    if (Math.abs(next - here[k]) >= margin || next < 0 || next > top) {
      return;
    }
    let from = direction > 0 ? next : next - AHEAD + 1;
    let to = direction > 0 ? next + AHEAD - 1 : next;
    from = Math.max(0, from);
    to = Math.min(top, to);
    while (from <= to && known(from)) { from += 1; }
    while (to >= from && known(to)) { to -= 1; }
    if (from > to) {
      return;
    }
    aheadInFlight = true;
    setTimeout(() => { aheadInFlight = false; }, ANSWER_TIMEOUT_MS);
    tell({ type: "states", indices: here, slider: k, from, to });
  }

  /* Once the figure is drawn and the page idle, the states around the thumb of every slider are asked for,
     one slider at a time, so that the first steps of a drag or of the arrow keys find them here. */
  const warmQueue = [];
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
  let warmScheduled = false;  // one idle callback at a time: an answer and the first draw both call warmNext
  function warmNext() {
    if (warmScheduled || !warmQueue.length || !alive) {
      return;
    }
    warmScheduled = true;
    idle(() => {
      warmScheduled = false;
      if (!alive || !warmQueue.length) {
        return;
      }
      if (aheadInFlight || pointerDown) {
        warmNext();
        return;
      }
      const k = warmQueue.shift();
      const here = sliderIndices();
      const top = Number(root.querySelectorAll("input[type=range]")[k].max);
      const from = Math.max(0, here[k] - AHEAD / 2);
      const to = Math.min(top, here[k] + AHEAD / 2);
      if (to > from) {
        aheadInFlight = true;
        setTimeout(() => { aheadInFlight = false; }, ANSWER_TIMEOUT_MS);
        tell({ type: "states", indices: here, slider: k, from, to });
      } else {
        warmNext();
      }
    });
  }

  /* A move asks at once, before the drawing code gets to it (see ask). */
  root.addEventListener("input", (event) => {
    const indices = sliderIndices();
    ask(indices, true, false);
    if (pointerDown && event.target.type === "range") {
      const k = Number(event.target.dataset.control);
      const direction = lastIndex === null ? 0 : Math.sign(indices[k] - lastIndex);
      if (lastIndex !== null) {
        const step = Math.abs(indices[k] - lastIndex);
        speed = speed ? (speed + step) / 2 : step;
      }
      lastIndex = indices[k];
      if (direction !== 0) {
        askAhead(k, direction);
      }
    }
  });

  /* With a slider focused and no pointer on it, the states one key press away are asked for ahead. */
  let pointerDown = false;
  root.addEventListener("pointerdown", (event) => {
    pointerDown = true;
    if (event.target.type === "range") {
      const k = Number(event.target.dataset.control);
      lastIndex = sliderIndices()[k];
    }
  });
  window.addEventListener("pointerup", () => { pointerDown = false; lastIndex = null; speed = 0; });
  function askNeighbours() {
    const focused = document.activeElement;
    if (pointerDown || !root.contains(focused) || focused.type !== "range") {
      return;
    }
    const k = Number(focused.dataset.control);
    const here = sliderIndices();
    [-1, 1].forEach((step) => {
      const near = here.slice();
      near[k] += step;
      if (near[k] >= 0 && near[k] <= Number(focused.max)) {
        ask(near, false, false);
      }
    });
  }
  root.addEventListener("focusin", askNeighbours);

  const source = {
    figure: structuredClone(model.get("figure")),
    texts: controls.map((control) => control.texts),
    scenes: model.get("scenes") || [],
    sideBySide: model.get("side_by_side") || null,
    narrowest: model.get("narrowest_plot_width") || null,
    key: (indices) => indices.join(","),
    state(indices, options) {
      const current = !(options && options.peek);
      const key = ask(indices, current, true);
      if (kept.has(key)) {
        if (current) {
          tellPosition(indices);
        }
        return kept.get(key);
      }
      return new Promise((resolve, reject) => {
        waiting.get(key).callbacks.push({ resolve, reject });
      });
    },
  };
  keep(source.key(controls.map((control) => control.default)), model.get("state"));
  root.addEventListener("rope-viz:rendered", () => {
    remembered.indices = sliderIndices();
  });

  let library = null;
  figureLibrary()
    .then((figures) => {
      library = figures;
      return alive ? figures.attach(root, source) : null;
    })
    .then((attached) => {
      handle = attached;
      if (handle && start.some((index, k) => index !== controls[k].default)) {
        handle.setIndices(start);
      }
      controls.forEach((_, k) => warmQueue.push(k));
      warmNext();
    })
    .catch((error) => {
      status.textContent = `This figure could not be drawn: ${error && error.message ? error.message : error}`;
      console.error("rope-viz: live figure failed:", error);
    });

  return () => {
    alive = false;
    root.dataset.detached = "true";
    clearTimeout(positionTimer);
    if (handle) {
      handle.detach();
    }
    model.off("msg:custom", onMessage);
    model.off("change:state", onState);
    const plot = root.querySelector(".rope-viz-plot");
    if (library && plot) {
      library.purge(plot);
    }
  };
}

export default { render };
