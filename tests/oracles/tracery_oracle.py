"""A plain Tracery interpreter, written separately from the domain, that enumerates by brute force.

It expands a rule with a choice source, the way Tracery 2 runs (rule stacks per
symbol, pushes expanded once and frozen, tag actions popped after the tag), in the
default (fixed) reading of escapes; `enumerate_derivations` lists every derivation
in lexicographic order of its choices by running the expansion again and again with
an odometer over the choices. Only the modifiers are shared with the domain (they
have their own known-answer tests).
"""

from __future__ import annotations

from epcg_spec.domains.tracery.modifiers import apply_modifiers


class TooDeep(Exception):
    pass


def _sections(rule: str) -> list[tuple[str, str]]:
    """('text' | 'tag' | 'action', raw) pieces, backslashes kept."""
    out, depth, in_tag, start, i = [], 0, False, 0, 0
    while i < len(rule):
        c = rule[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            if depth == 0 and not in_tag:
                if start < i:
                    out.append(("text", rule[start:i]))
                start = i + 1
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0 and not in_tag:
                out.append(("action", rule[start:i]))
                start = i + 1
        elif c == "#" and depth == 0:
            if in_tag:
                out.append(("tag", rule[start:i]))
            elif start < i:
                out.append(("text", rule[start:i]))
            start = i + 1
            in_tag = not in_tag
        i += 1
    if start < len(rule):
        out.append(("text", rule[start:]))
    return [s for s in out if s[0] != "text" or s[1]]


def _split(text: str, sep: str, once: bool = False) -> list[str]:
    parts, cur, i = [], "", 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            cur += text[i : i + 2]
            i += 2
            continue
        if text[i] == sep and not (once and parts):
            parts.append(cur)
            cur = ""
        else:
            cur += text[i]
        i += 1
    return [*parts, cur]


class Interpreter:
    def __init__(self, grammar: dict[str, list[str]], choose, depth: int, no_repeat=()):
        self.stacks = {k: [list(v)] for k, v in grammar.items()}
        self.base = {k: id(self.stacks[k][0]) for k in grammar}
        self.used = {k: set() for k in no_repeat}
        self.choose = choose
        self.depth = depth

    def expand(self, rule: str, level: int) -> str:
        out = ""
        for kind, raw in _sections(rule):
            if kind == "text":
                out += raw
            elif kind == "action":
                self.act(raw, level)
            else:
                out += self.tag(raw, level)
        return out

    def act(self, raw: str, level: int) -> str | None:
        parts = _split(raw, ":", once=True)
        if len(parts) == 1:
            self.expand(raw, level)
            return None
        target, rule = parts
        if rule == "POP":
            if self.stacks.get(target):
                self.stacks[target].pop()
            return None
        values = [self.expand(v, level) for v in _split(rule, ",")]
        self.stacks.setdefault(target, []).append(values)
        return target

    def tag(self, raw: str, level: int) -> str:
        pieces = _sections(raw)
        plain = [p for k, p in pieces if k == "text"]
        if len(plain) > 1:
            return f"(({raw}))"
        pushed = [t for k, p in pieces if k != "text" for t in [self.act(p, level)] if t]
        symbol, *mods = _split(plain[0], ".") if plain else ["undefined"]
        text = self.select(symbol, level)
        modifiers = []
        for m in mods:
            at = m.find("(")
            end = m.find(")", at + 1)
            if at > 0 and end > at + 1:
                modifiers.append((m[:at], tuple(_split(m[at + 1 : end], ","))))
            else:
                modifiers.append((m, None))
        text = apply_modifiers(text, tuple(modifiers), False)
        for target in pushed:
            self.stacks[target].pop()
        return text

    def select(self, symbol: str, level: int) -> str:
        if level >= self.depth:
            raise TooDeep
        stack = self.stacks.get(symbol)
        if not stack:
            self.choose(1)
            return f"(({symbol}))"
        rules = stack[-1]
        if symbol in self.used and id(rules) == self.base[symbol]:
            free = [i for i in range(len(rules)) if i not in self.used[symbol]]
            index = free[self.choose(len(free))]
            self.used[symbol].add(index)
            if len(self.used[symbol]) == len(rules):
                self.used[symbol] = set()
        else:
            index = self.choose(len(rules))
        return self.expand(rules[index], level + 1)


def unescape(text: str) -> str:
    out, i = "", 0
    while i < len(text):
        if text[i] == "\\":
            out += text[i + 1 : i + 2]
            i += 2
        else:
            out += text[i]
            i += 1
    return out


def enumerate_derivations(grammar, origin: str, depth: int = 12, no_repeat=()):
    """Every derivation (choices, text) in lexicographic order of choices."""
    prefix: list[int] = []
    while True:
        made: list[tuple[int, int]] = []

        def choose(n: int, made=made, prefix=prefix) -> int:
            k = prefix[len(made)] if len(made) < len(prefix) else 0
            made.append((k, n))
            return k

        try:
            text = Interpreter(grammar, choose, depth, no_repeat).expand(origin, 0)
            yield [k for k, _ in made], unescape(text)
        except TooDeep:
            pass
        while made and made[-1][0] + 1 >= made[-1][1]:
            made.pop()
        if not made:
            return
        prefix = [k for k, _ in made[:-1]] + [made[-1][0] + 1]
