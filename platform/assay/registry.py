"""One registry of named things, by namespace: operators, log formats, scheduling policies, model and
cluster presets, simulator workloads and job specs.

    from assay import registry
    registry.register("policies", "mine", MyPolicy)
    registry.get("policies", "fifo")           # UnknownName (a KeyError, code E002) with "did you mean"
    registry.names("model_presets")            # in the order they were registered
    registry.namespaces()

Each package keeps its own public functions (``get_operator``, ``register_parser``, ``get_policy`` ...) as
thin wrappers over this one store of names.

Every entry comes from a package entry point (the way spaCy's ``spacy_factories`` and pytest's ``pytest11``
work) in the group ``assay_<namespace>``, assay's own built-ins included: this module holds no table of
modules, and assay registers its operators and policies exactly as another installed package does::

    [project.entry-points.assay_policies]
    mine = "my_package.policies:MyPolicy"      # the object registered as "mine"
    [project.entry-points.assay_operators]
    my_ops = "my_package.operators"            # a module: importing it registers its own entries

The entry points of assay's own distribution are its built-ins: they are imported on a namespace's first
lookup that misses (or its first listing), in the order of their names, until one has registered the name
asked for, so importing ``assay`` imports none of them and a papers run never imports the logs family. The
groups they fill are the namespaces. Every other distribution's entry points are read after all the
built-ins, when a lookup still misses or a namespace is listed, and never replace a name already registered
(a built-in, or a ``register`` call of the user's). Without assay's own metadata (a source tree that was
never installed) a lookup raises :class:`NotInstalled`, which says how to install it.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator, Mapping
from importlib import metadata
from typing import Any

from assay.errors import AssayError

#: The distribution whose entry points are the built-ins.
DISTRIBUTION = "assay"
#: The command that installs it (and rewrites its entry points) from a checkout.
INSTALL = "pip install -e . (or make install) in the assay checkout"

#: What one entry of a namespace is, in words, for messages ("unknown policy 'x'"); a namespace not here is
#: described by its own name. Which namespaces exist and which modules fill them is the packaging's to say.
KINDS: dict[str, str] = {
    "operators": "operator",
    "log_parsers": "log format",
    "policies": "policy",
    "model_presets": "model",
    "cluster_presets": "gpu/cluster",
    "workloads": "workload kind",
    "job_specs": "job spec",
}

GROUP_PREFIX = "assay_"

log = logging.getLogger(__name__)


def entry_point_group(namespace: str) -> str:
    """The entry-point group through which an installed package registers into ``namespace``."""
    return f"{GROUP_PREFIX}{namespace}"


def builtin_entry_points(distribution: str = DISTRIBUTION) -> dict[str, list[metadata.EntryPoint]]:
    """namespace -> the entry points of ``distribution`` that register its built-ins, sorted by name (the
    order they are imported in). :class:`NotInstalled` when the distribution is not installed, or declares
    none (metadata written before the built-ins became entry points)."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        raise NotInstalled(f"Python finds no installed {distribution!r} distribution, whose entry points "
                           "register the built-in operators, log formats, policies and presets (a source tree "
                           "that was never installed?).") from None
    found: dict[str, list[metadata.EntryPoint]] = {}
    for point in sorted(dist.entry_points, key=lambda p: (p.group, p.name)):
        if point.group.startswith(GROUP_PREFIX):
            found.setdefault(point.group.removeprefix(GROUP_PREFIX), []).append(point)
    if not found:
        raise NotInstalled(f"the installed metadata of {distribution!r} ({_where(dist)}) declares no "
                           f"{GROUP_PREFIX}* entry points, which register the built-ins (installed before they "
                           "moved there?).")
    return found


class NotInstalled(AssayError, RuntimeError):
    """assay's own package metadata, whose entry points register the built-ins, is missing or stale."""

    code = "E003"

    def __init__(self, message: str):
        super().__init__(message, f"install it: {INSTALL}.")


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
    """Named objects by namespace. Registering a name again replaces the entry (in its first place).

    ``distribution`` is the one whose entry points are the built-ins (None: a registry with none, e.g. a
    test's own); ``kinds`` says what one entry of a namespace is, in words."""

    def __init__(self, distribution: str | None = DISTRIBUTION, kinds: Mapping[str, str] | None = None):
        self._distribution = distribution
        self._kinds = dict(KINDS if kinds is None else kinds)
        self._entries: dict[str, dict[str, Any]] = {}
        #: namespace -> its built-in entry points, read from the distribution's metadata on the first need.
        self._builtins: dict[str, list[metadata.EntryPoint]] | None = None if distribution else {}
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
        """The namespaces the built-ins' entry points fill, and any other one something registered into."""
        return sorted({*self._builtin_points(), *self._entries})

    def describe(self, namespace: str) -> str:
        """What one entry of ``namespace`` is, in words (``policy``, ``log format``)."""
        return self._kinds.get(namespace, namespace.rstrip("s"))

    def load_builtins(self, namespace: str, until: str | None = None) -> None:
        """Load the built-in entry points of ``namespace`` (cheap once their modules are imported); with
        ``until``, stop after the one that registered that name (a papers run does not import the logs
        family: a third of a second of every small run)."""
        entries = self._entries.setdefault(namespace, {})
        for point in self._builtin_points().get(namespace, ()):
            try:
                obj = point.load()
            except ModuleNotFoundError as exc:
                if exc.name != point.module:  # a dependency of the module is missing: its own error
                    raise
                raise NotInstalled(f"the installed metadata of {self._distribution!r} names the module "
                                   f"{point.module} (entry point {point.name}, group {point.group}), which does "
                                   "not exist: it was written before the module moved.") from exc
            if point.attr:
                entries.setdefault(point.name, obj)
            if until is not None and until in entries:
                return

    def load_plugins(self, namespace: str) -> None:
        """Register the entry points of the group ``assay_<namespace>`` of every installed distribution but
        the built-ins' own: an object under the entry point's name, or a module imported (it registers its
        entries itself). Read once per namespace, again if ``sys.path`` has changed. A name already registered
        is kept (logged); a plugin that fails to import raises its own error, with a note naming the entry
        point and its distribution."""
        path = tuple(sys.path)
        if self._plugins_read.get(namespace) == path:
            return
        self._plugins_read[namespace] = path
        entries = self._entries.setdefault(namespace, {})
        for point in metadata.entry_points(group=entry_point_group(namespace)):
            dist = getattr(point.dist, "name", None)
            if self._distribution and dist and _normal(dist) == _normal(self._distribution):
                continue  # a built-in: loaded by load_builtins, first
            if point.attr and point.name in entries:
                log.warning("entry point %s = %s (group %s) not registered: %r is already a %s", point.name,
                            point.value, point.group, point.name, self.describe(namespace))
                continue
            before = dict(entries)
            try:
                obj = point.load()
            except Exception as exc:
                self._plugins_read.pop(namespace, None)  # read again (and fail again) on the next lookup
                exc.add_note(f"while loading the entry point {point.name} = {point.value} of "
                             f"{dist or 'an unknown distribution'} (group {point.group}): fix or uninstall "
                             "that package.")
                raise
            if point.attr:
                entries[point.name] = obj
            for name, kept in before.items():  # a plugin module's own register() calls replace nothing
                if entries.get(name) is not kept:
                    log.warning("entry point %s = %s (group %s) tried to replace the %s %r; kept the first",
                                point.name, point.value, point.group, self.describe(namespace), name)
                    entries[name] = kept

    def _builtin_points(self) -> dict[str, list[metadata.EntryPoint]]:
        if self._builtins is None and self._distribution:
            self._builtins = builtin_entry_points(self._distribution)
        return self._builtins or {}

    def _namespace(self, namespace: str) -> dict[str, Any]:
        return self._entries.setdefault(self._check(namespace), {})

    def _check(self, namespace: str) -> str:
        if namespace not in self._entries and namespace not in self._builtin_points():
            raise UnknownName("namespaces", namespace, self.namespaces(), "registry namespace")
        return namespace


def _normal(name: str) -> str:
    """A distribution's name as packaging compares it (``My_Pkg`` and ``my-pkg`` are one)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _where(dist: metadata.Distribution) -> str:
    """The folder a distribution's metadata was found in (its ``sys.path`` entry)."""
    return f"found in {dist.locate_file('')}"


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
