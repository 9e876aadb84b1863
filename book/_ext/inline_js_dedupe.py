"""Work around Sphinx 7.4: inline (body-only) scripts added after the builder
is initialised (sphinx-thebe's `const THEBE_JS_URL`, sphinx-togglebutton's
selector) are emitted twice on every page, because the builder stores them with
filename None and prepare_writing() re-adds them from the registry with
filename ''.  The duplicated `const` raises "Identifier 'THEBE_JS_URL' has
already been declared" in the browser.  Normalise None -> '' so they dedupe."""
from sphinx.builders.html._assets import _JavaScript


def _normalise(app, env):
    files = getattr(app.builder, "_js_files", None)
    if files is None:
        return
    out = []
    for js in files:
        if js.filename is None:
            js = _JavaScript("", priority=js.priority, **js.attributes)
        if js not in out:
            out.append(js)
    files[:] = out


def setup(app):
    app.connect("env-updated", _normalise)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
