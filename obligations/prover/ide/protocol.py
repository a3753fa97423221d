"""Coq 8.16's XML IDE protocol, encoding and decoding only (no I/O).

Calls are XML strings written to `coqidetop.opt`'s stdin; it answers with a
stream of top-level elements on stdout: `<feedback>` (progress, messages) in
any number, then one `<value>` per call.  `Decoder` is fed the raw bytes as
they arrive and hands back whole, decoded elements.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from obligations.errors import InfrastructureError

RULE = "=" * 28   # what Coq prints between hypotheses and the conclusion


class ProtocolError(InfrastructureError):
    """coqidetop said something this module cannot read: a bug or another Coq version."""


# -- values ---------------------------------------------------------------

@dataclass(frozen=True)
class Location:
    """A span Coq reports, in bytes from the start of the sentence (Coq counts bytes)."""

    start: int
    stop: int

    def chars(self, sentence: str) -> tuple[int, int]:
        """The same span in characters of `sentence` (differs once it has non-ASCII text)."""
        raw = sentence.encode("utf-8")
        return (len(raw[:self.start].decode("utf-8", "ignore")),
                len(raw[:self.stop].decode("utf-8", "ignore")))


@dataclass(frozen=True)
class Message:
    """A message Coq printed: level is error, warning, notice, info or debug."""

    level: str
    text: str
    location: Location | None = None


@dataclass(frozen=True)
class Goal:
    hypotheses: tuple[str, ...]
    conclusion: str
    ident: str = ""
    name: str | None = None

    def pretty(self) -> str:
        return "\n".join([*self.hypotheses, RULE, self.conclusion])


@dataclass(frozen=True)
class Goals:
    foreground: tuple[Goal, ...]
    background: tuple[Goal, ...] = ()
    shelved: tuple[Goal, ...] = ()
    given_up: tuple[Goal, ...] = ()

    def pretty(self) -> str:
        if not self.foreground:
            rest = len(self.background) + len(self.shelved)
            return f"no focused goal ({rest} unfocused or shelved)" if rest else "No more goals."
        if len(self.foreground) == 1:
            return self.foreground[0].pretty()
        n = len(self.foreground)
        return "\n\n".join(f"goal {k} of {n}\n{g.pretty()}" for k, g in enumerate(self.foreground, 1))


@dataclass(frozen=True)
class Status:
    path: tuple[str, ...]
    proof_name: str | None       # the proof being done, if any
    all_proofs: tuple[str, ...]
    proof_number: int


@dataclass(frozen=True)
class Tagged:
    """A protocol `union`: side is "in_l" or "in_r"."""

    side: str
    value: object


@dataclass(frozen=True)
class Answer:
    """The `<value>` that ends every call: good with a value, or fail."""

    ok: bool
    value: object = None
    error: str = ""
    location: Location | None = None
    state: int | None = None     # on fail: the last good state (0: none named)


@dataclass(frozen=True)
class Feedback:
    """Anything Coq sends besides answers; only `message` feedback carries a Message."""

    kind: str
    state: int | None = None
    message: Message | None = None


Decoded = Answer | Feedback


# -- encoding -------------------------------------------------------------

def _el(tag: str, *children: ET.Element, text: str | None = None, **attrs: str) -> ET.Element:
    el = ET.Element(tag, attrs)
    el.extend(children)
    el.text = text
    return el


def _pair(a: ET.Element, b: ET.Element) -> ET.Element:
    return _el("pair", a, b)


def _int(n: int) -> ET.Element:
    return _el("int", text=str(n))


def _state(state: int) -> ET.Element:
    return _el("state_id", val=str(state))


def _bool(b: bool) -> ET.Element:
    return _el("bool", val="true" if b else "false")


def _call(name: str, arg: ET.Element) -> str:
    return ET.tostring(_el("call", arg, val=name), encoding="unicode")


def init() -> str:
    """Init(None): answers the first state id."""
    return _call("Init", _el("option", val="none"))


def add(sentence: str, state: int, *, edit_id: int = 0, verbose: bool = False) -> str:
    """Add one sentence after `state`: ((((sentence, edit_id), (state, verbose)), bp), (line, bol)).

    Coq parses only the first sentence of the string.  With bp = 0 the
    locations it reports are offsets into `sentence`.
    """
    head = _pair(_pair(_el("string", text=sentence), _int(edit_id)), _pair(_state(state), _bool(verbose)))
    return _call("Add", _pair(_pair(head, _int(0)), _pair(_int(1), _int(0))))


def goal() -> str:
    """Goal(): executes up to the tip and answers its goals (None outside a proof)."""
    return _call("Goal", _el("unit"))


def edit_at(state: int) -> str:
    """Edit_at(state): rewinds the document so that `state` is the tip."""
    return _call("Edit_at", _state(state))


def status(force: bool = False) -> str:
    """Status(force): executes up to the tip (that is why we send it) and names the open proof."""
    return _call("Status", _bool(force))


def quit() -> str:  # noqa: A001 - the protocol's name
    return _call("Quit", _el("unit"))


# -- decoding -------------------------------------------------------------

def richpp_text(el: ET.Element) -> str:
    """Pretty-printed text with its markup (`<constr.variable>` ...) dropped."""
    return "".join(el.itertext())


def _goal(el: ET.Element) -> Goal:
    name = _to_py(el[3]) if len(el) > 3 else None   # 8.16 adds the goal's name
    return Goal(tuple(richpp_text(h) for h in el[1]), richpp_text(el[2]), el[0].text or "",
                name if isinstance(name, str) else None)


def _goals(el: ET.Element) -> Goals:
    fg = tuple(_goal(g) for g in el[0])
    # background goals come as a list of (before, after) pairs of lists, one per focus level
    bg = tuple(_goal(g) for p in el[1] for side in p for g in side)
    return Goals(fg, bg, tuple(_goal(g) for g in el[2]), tuple(_goal(g) for g in el[3]))


def _status(el: ET.Element) -> Status:
    path, name, proofs, number = (_to_py(c) for c in el)
    return Status(tuple(path), name, tuple(proofs), number)  # type: ignore[arg-type]


def _location(el: ET.Element) -> Location:
    return Location(int(el.get("start", "0")), int(el.get("stop", "0")))


def _message(el: ET.Element) -> Message:
    level = el.find("message_level")
    loc = el.find("option/loc")
    pp = el.find("richpp")
    return Message(level.get("val", "") if level is not None else "",
                   richpp_text(pp) if pp is not None else "",
                   _location(loc) if loc is not None else None)


def _to_py(el: ET.Element) -> object:
    """A protocol value as a Python value."""
    tag = el.tag
    if tag == "unit":
        return None
    if tag == "bool":
        return el.get("val") == "true"
    if tag == "int":
        return int(el.text or "0")
    if tag == "string":
        return el.text or ""
    if tag in ("state_id", "edit_id"):
        return int(el.get("val", "0"))
    if tag == "list":
        return [_to_py(c) for c in el]
    if tag == "pair":
        return (_to_py(el[0]), _to_py(el[1]))
    if tag == "option":
        return _to_py(el[0]) if el.get("val") == "some" else None
    if tag == "union":
        return Tagged(el.get("val", ""), _to_py(el[0]))
    if tag in ("richpp", "pp"):
        return richpp_text(el)
    decode = _DECODERS.get(tag)
    if decode is None:
        raise ProtocolError(f"coqidetop answered an unknown <{tag}> element")
    return decode(el)


_DECODERS = {"goals": _goals, "goal": _goal, "status": _status, "message": _message, "loc": _location}


def _answer(el: ET.Element) -> Answer:
    if el.get("val") == "good":
        return Answer(True, _to_py(el[0]) if len(el) else None)
    state = el.find("state_id")
    pp = el.find("richpp")
    error = richpp_text(pp) if pp is not None else "".join(el.itertext())
    loc = Location(int(el.get("loc_s", "0")), int(el.get("loc_e", "0"))) if "loc_s" in el.attrib else None
    return Answer(False, None, error.strip(), loc, int(state.get("val", "0")) if state is not None else None)


def _feedback(el: ET.Element) -> Feedback:
    ident = el.find("state_id")
    content = el.find("feedback_content")
    kind = content.get("val", "") if content is not None else ""
    msg = content.find("message") if content is not None else None
    return Feedback(kind, int(ident.get("val", "0")) if ident is not None else None,
                    _message(msg) if msg is not None else None)


def decode(el: ET.Element) -> Decoded:
    """One top-level element of the answer stream."""
    if el.tag == "value":
        return _answer(el)
    if el.tag == "feedback":
        return _feedback(el)
    if el.tag == "message":          # older Coqs send bare messages
        return Feedback("message", None, _message(el))
    raise ProtocolError(f"coqidetop sent an unexpected <{el.tag}> element")


# Coq writes ' ' as &nbsp;, which XML does not define: declaring it lets the
# stream be parsed as it arrives, without rewriting it.
_PROLOGUE = b'<!DOCTYPE coq [<!ENTITY nbsp " ">]><coq>'
# Coq copies "&#" from printed text unescaped; only real character references may stay.
_CHAR_REF = re.compile(rb"&#(?:(x[0-9a-fA-F]{1,6}|[0-9]{1,7});)?")


def _xml_char(code: int) -> bool:
    return code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD \
        or 0x10000 <= code <= 0x10FFFF


def _fix_ref(m: re.Match[bytes]) -> bytes:
    ref = m.group(1)
    if ref is not None:
        code = int(ref[1:], 16) if ref.startswith(b"x") else int(ref)
        if _xml_char(code):
            return m.group(0)
    return b"&amp;" + m.group(0)[1:]


def _cut(data: bytes) -> int:
    """Where to stop feeding: not inside a trailing, possibly incomplete `&...;`."""
    amp = data.rfind(b"&")
    if amp >= 0 and b";" not in data[amp:] and len(data) - amp < 12:
        return amp
    return len(data)


class Decoder:
    """Incremental reader of coqidetop's answer stream."""

    def __init__(self) -> None:
        self._parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
        self._parser.feed(_PROLOGUE)
        self._depth = 0
        self._root: ET.Element | None = None
        self._pending = b""

    def feed(self, data: bytes) -> list[Decoded]:
        data = self._pending + data
        cut = _cut(data)
        self._pending = data[cut:]
        try:
            self._parser.feed(_CHAR_REF.sub(_fix_ref, data[:cut]))
            return self._complete()
        except ET.ParseError as exc:
            raise ProtocolError(f"cannot parse coqidetop's answer: {exc}") from exc

    def _complete(self) -> list[Decoded]:
        done: list[Decoded] = []
        for item in self._parser.read_events():
            event, el = item[0], item[-1]     # ("start" | "end", element) for our events
            if not isinstance(el, ET.Element):
                continue
            if event == "start":
                self._depth += 1
                if self._depth == 1:
                    self._root = el
                continue
            self._depth -= 1
            if self._depth == 1 and self._root is not None:   # a whole top-level element
                done.append(decode(el))
                self._root.remove(el)      # keep memory flat over a long session
        return done


def decode_all(data: bytes) -> list[Decoded]:
    """Every element of a recorded stretch of the stream."""
    return Decoder().feed(data + b" ")  # the space releases a held-back trailing '&'


def added_state(answer: Answer) -> int:
    """The new state id in a good answer to Add: (state, Inl () | Inr next)."""
    value = answer.value
    if not (isinstance(value, tuple) and isinstance(value[0], int)):
        raise ProtocolError(f"unexpected answer to Add: {value!r}")
    return value[0]
