// Hides the static fallback of a tensorlab widget once its live view renders (see fallback.py).
// The fallback is an earlier output of the same cell: <div class="tl-fallback" data-tl-fallback=ID>.
// In JupyterLab and Notebook 7 the whole output (prompt and padding) is hidden, elsewhere the div.

function render({ model, el }) {
  el.style.display = "none";
  const hide = () => {
    const selector = `[data-tl-fallback="${CSS.escape(model.get("fallback_id"))}"]`;
    for (const fallback of document.querySelectorAll(selector)) {
      (fallback.closest(".jp-OutputArea-child") ?? fallback).style.display = "none";
    }
  };
  hide();
  requestAnimationFrame(hide); // in case the fallback is attached to the page just after this view
}

export default { render };
