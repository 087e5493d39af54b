// Browser side of every tensorlab explorer: draw the SVG sent by Python, link elements on hover.
// An element is a <g data-key=... data-links="k1 k2" data-info="..."> (see tensorlab/widgets/svg.py).

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tl-explorer";
  const figure = document.createElement("div");
  figure.className = "tl-figure";
  const info = document.createElement("div");
  info.className = "tl-info";
  root.append(figure, info);
  el.append(root);

  let lit = [];
  const clear = () => {
    for (const node of lit) node.classList.remove("tl-hl", "tl-linked");
    lit = [];
    info.textContent = model.get("info");
  };
  const byKey = (key) => figure.querySelectorAll(`[data-key="${CSS.escape(key)}"]`);

  const onOver = (event) => {
    const target = event.target.closest("[data-key]");
    if (!target || !figure.contains(target)) return;
    clear();
    target.classList.add("tl-hl");
    lit.push(target);
    for (const key of (target.dataset.links || "").split(" ").filter(Boolean)) {
      for (const node of byKey(key)) {
        node.classList.add("tl-linked");
        lit.push(node);
      }
    }
    if (target.dataset.info) info.textContent = target.dataset.info;
  };

  const draw = () => {
    lit = [];
    figure.innerHTML = model.get("svg");
    info.textContent = model.get("info");
  };

  figure.addEventListener("mouseover", onOver);
  figure.addEventListener("mouseleave", clear);
  model.on("change:svg", draw);
  model.on("change:info", draw);
  draw();
  return () => {
    figure.removeEventListener("mouseover", onOver);
    figure.removeEventListener("mouseleave", clear);
    model.off("change:svg", draw);
    model.off("change:info", draw);
  };
}

export default { render };
