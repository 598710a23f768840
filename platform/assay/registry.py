"""One registry of named things, by namespace: operators, log formats, scheduling policies, model and
cluster presets, simulator workloads and job specs.

    from assay import registry
    registry.register("policies", "mine", MyPolicy)
    registry.get("policies", "fifo")           # UnknownName (a KeyError, code E002) with "did you mean"
    registry.names("model_presets")            # in the order they were registered
    registry.namespaces()

Each package keeps its own public functions (``get_operator``, ``register_parser``, ``get_policy`` ...) as
thin wrappers over this one store of names. A namespace's built-ins are registered by the modules named in
:data:`BUILTINS`, imported on the first lookup that misses (or the first listing): importing ``assay`` imports
none of them. The names are strings, so this module imports nothing else of assay's but the error catalogue,
and every layer may use it.

Another installed package registers into a namespace without any table here, by a package entry point (the
way spaCy's ``spacy_factories`` and pytest's ``pytest11`` work) in the group ``assay_<namespace>``::

    [project.entry-points.assay_policies]
    mine = "my_package.policies:MyPolicy"      # the object registered as "mine"
    [project.entry-points.assay_operators]
    my_ops = "my_package.operators"            # a module: importing it registers its own entries

They are read after the built-ins, when a lookup misses or a namespace is listed (not on ``import assay``),
and never replace a name already registered (a built-in, or a ``register`` call of the user's).
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Iterator, Mapping
from importlib import metadata
from typing import Any

from assay.errors import AssayError

#: namespace -> (what one entry is, in words; the modules whose import registers the built-ins).
BUILTINS: dict[str, tuple[str, tuple[str, ...]]] = {
    "operators": ("operator", ("assay.operators.papers", "assay.operators.logs")),
    "log_parsers": ("log format", ("assay.operators.logs",)),
    "policies": ("policy", ("assay.scheduler.policies",)),
    "model_presets": ("model", ("assay.domain.model_spec",)),
    "cluster_presets": ("gpu/cluster", ("assay.scheduler.cluster",)),
    "workloads": ("workload kind", ("assay.scheduler.workloads",)),
    "job_specs": ("job spec", ("assay.jobs.spec",)),
}


log = logging.getLogger(__name__)


def entry_point_group(namespace: str) -> str:
    """The entry-point group through which an installed package registers into ``namespace``."""
    return f"assay_{namespace}"


class UnknownName(AssayError, KeyError):
    """A name (or a namespace) the registry does not hold; ``suggestions`` are the closest known names."""

    code = "E002"

    def __init__(self, namespace: str, name: str, known: list[str], what: str):
        self.namespace = namespace
        self.name = name
        self.known = known
        self.suggestions = suggest(name, known)
        hint = f" Did you mean {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"unknown {what} {name!r}; known: {', '.join(known) or '(none)'}.{hint}")


def suggest(name: str, known: list[str], n: int = 3) -> list[str]:
    """The known names closest to ``name``: those containing it or sharing its first word, then look-alikes."""
    import difflib  # only when a name is wrong: `import assay` stays cheap

    lowered = name.lower()
    near = [k for k in known if lowered and (lowered in k.lower() or _first_word(k) in lowered)]
    alike = difflib.get_close_matches(name, known, n=n, cutoff=0.6)
    return list(dict.fromkeys([*alike, *near]))[:n]


def _first_word(name: str) -> str:
    for sep in "_-.:":
        name = name.split(sep)[0]
    return name.lower() or "\0"


class Registry:
    """Named objects by namespace. Registering a name again replaces the entry (in its first place)."""

    def __init__(self, builtins: Mapping[str, tuple[str, tuple[str, ...]]] | None = None):
        self._builtins = dict(BUILTINS if builtins is None else builtins)
        self._entries: dict[str, dict[str, Any]] = {ns: {} for ns in self._builtins}
        #: namespace -> the ``sys.path`` its entry points were read for (read again when it changes).
        self._plugins_read: dict[str, tuple[str, ...]] = {}

    def register(self, namespace: str, name: str, obj: Any) -> Any:
        """Put ``obj`` under ``name`` in ``namespace`` (created if new); returns ``obj`` (decorator-friendly)."""
        if not name:
            raise ValueError(f"an entry of {namespace!r} needs a name")
        self._entries.setdefault(namespace, {})[name] = obj
        return obj

    def unregister(self, namespace: str, name: str) -> None:
        self._entries.get(namespace, {}).pop(name, None)

    def get(self, namespace: str, name: str) -> Any:
        """The entry ``name`` of ``namespace``, loading the namespace's built-ins if it is not there yet."""
        entries = self._namespace(namespace)
        if name not in entries:
            self.load_builtins(namespace, until=name)
        if name not in entries:
            self.load_plugins(namespace)
        try:
            return entries[name]
        except KeyError:
            raise UnknownName(namespace, name, list(entries), self.describe(namespace)) from None

    def has(self, namespace: str, name: str) -> bool:
        return name in self.entries(namespace)

    def names(self, namespace: str) -> list[str]:
        """Every name of ``namespace``, built-ins included, in the order they were registered."""
        return list(self.entries(namespace))

    def entries(self, namespace: str) -> dict[str, Any]:
        """A copy of ``namespace``'s entries (name -> object), built-ins included."""
        self.load_builtins(self._check(namespace))
        self.load_plugins(namespace)
        return dict(self._entries[namespace])

    def view(self, namespace: str) -> Mapping[str, Any]:
        """A read-only, live mapping of ``namespace`` (what a module's old dict of presets now is)."""
        return _View(self, namespace)

    def namespaces(self) -> list[str]:
        return sorted(self._entries)

    def describe(self, namespace: str) -> str:
        """What one entry of ``namespace`` is, in words (``policy``, ``log format``)."""
        return self._builtins.get(namespace, (namespace.rstrip("s"), ()))[0]

    def load_builtins(self, namespace: str, until: str | None = None) -> None:
        """Import the modules that register ``namespace``'s built-ins (cheap once they are imported); with
        ``until``, stop after the module that registered that name (a papers run does not import the logs
        family: a third of a second of every small run)."""
        for module in self._builtins.get(namespace, ("", ()))[1]:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as exc:
                if exc.name != module:  # a missing optional package stays missing; a broken import raises
                    raise
            if until is not None and until in self._entries.get(namespace, {}):
                return

    def load_plugins(self, namespace: str) -> None:
        """Register the entry points of the group ``assay_<namespace>`` of every installed distribution: an
        object under the entry point's name, or a module imported (it registers its entries itself). Read
        once per namespace, again if ``sys.path`` has changed. A name already registered is kept (logged);
        a plugin that fails to import raises its own error, with a note naming the entry point."""
        path = tuple(sys.path)
        if self._plugins_read.get(namespace) == path:
            return
        self._plugins_read[namespace] = path
        entries = self._entries.setdefault(namespace, {})
        for point in metadata.entry_points(group=entry_point_group(namespace)):
            if point.attr and point.name in entries:
                log.warning("entry point %s = %s (group %s) not registered: %r is already a %s", point.name,
                            point.value, point.group, point.name, self.describe(namespace))
                continue
            before = dict(entries)
            try:
                obj = point.load()
            except Exception as exc:
                self._plugins_read.pop(namespace, None)  # read again (and fail again) on the next lookup
                dist = getattr(point.dist, "name", None) or "an unknown distribution"
                exc.add_note(f"while loading the entry point {point.name} = {point.value} of {dist} "
                             f"(group {point.group}): fix or uninstall that package.")
                raise
            if point.attr:
                entries[point.name] = obj
            for name, kept in before.items():  # a plugin module's own register() calls replace nothing
                if entries.get(name) is not kept:
                    log.warning("entry point %s = %s (group %s) tried to replace the %s %r; kept the first",
                                point.name, point.value, point.group, self.describe(namespace), name)
                    entries[name] = kept

    def _namespace(self, namespace: str) -> dict[str, Any]:
        return self._entries[self._check(namespace)]

    def _check(self, namespace: str) -> str:
        if namespace not in self._entries:
            raise UnknownName("namespaces", namespace, self.namespaces(), "registry namespace")
        return namespace


class _View(Mapping[str, Any]):
    def __init__(self, registry: Registry, namespace: str):
        self._registry = registry
        self._namespace = namespace

    def __getitem__(self, name: str) -> Any:
        return self._registry.get(self._namespace, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry.names(self._namespace))

    def __len__(self) -> int:
        return len(self._registry.names(self._namespace))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._registry.has(self._namespace, name)

    def __repr__(self) -> str:
        return f"<registry {self._namespace}: {', '.join(self)}>"


#: The one registry every package registers into.
REGISTRY = Registry()
register = REGISTRY.register
unregister = REGISTRY.unregister
get = REGISTRY.get
has = REGISTRY.has
names = REGISTRY.names
entries = REGISTRY.entries
view = REGISTRY.view
namespaces = REGISTRY.namespaces
