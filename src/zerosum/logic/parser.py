"""The strict prefix format of the classic wumpus-world assignment, one sentence a line.

    # a comment: the line's first non-blank character is '#'
    P_1_1
    (not M_1_1)
    (if M_1_3 (and S_1_2 S_1_4 S_2_3))

A sentence is a symbol (letters, digits and '_') or `(connective operand ...)`. The rules,
each checked and reported with the file, line and column:
- '(' is followed immediately by the connective: `( and P Q)` is an error;
- a '(' that does not start the line is preceded by white space: `(not(and))`, `P(not Q)`;
- a ')' that does not end the line is followed by white space or another ')':
  `(not P)Q` is an error, `(and P (not Q))` is fine;
- a bare symbol is never parenthesised: `(P_1_1)` is an error;
- `not` takes one operand, `if` and `iff` two; `and`, `or`, `xor` any number, none included;
- one sentence per line; blank lines and comment lines are skipped.
The classic program reads its files as its course states them (`classic=True`): a blank
line must be empty (one holding only white space is an error), and of a statement file
only the first sentence is read (`first=True`: the lines after it are not looked at).
Connectives are read in any case (`AND` is `and`, as the classic programs allowed) and a
connective's name is not a symbol. White space is spaces and tabs.
"""

from __future__ import annotations

from collections.abc import Collection

from zerosum.fileio import read_text
from zerosum.game import InputError
from zerosum.logic.expr import ARITY, Compound, Expr, Symbol

# Deep enough for any sentence a person or a generator writes; bounded so that the
# recursive walks over the tree (printing, evaluating, clause form) stay within Python's
# recursion limit.
MAX_DEPTH = 200
FILE_LIMIT = 1024 * 1024  # bytes of a sentence file: the wumpus rules take 3.4 KiB

WHITE = " \t"
WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


class LogicSyntaxError(InputError):
    """A violation of the format, with where it is: `file:line:column: problem`."""

    def __init__(self, source: str, line: int, column: int, problem: str) -> None:
        super().__init__(f"{source}:{line}:{column}: {problem}")
        self.source, self.line, self.column, self.problem = source, line, column, problem


def parse(
    text: str,
    source: str = "<text>",
    symbols: Collection[str] | None = None,
    symbols_help: str = "",
    *,
    classic: bool = False,
    first: bool = False,
) -> list[Expr]:
    """The sentences of a file's text, in order. `source` names the file in errors;
    `symbols`, when given, is the set of allowed symbol names (any other is an error,
    which ends with `symbols_help` when given); `classic` and `first` as in the module's
    notes."""
    return [e for _, e in parse_lines(text, source, symbols, symbols_help,
                                      classic=classic, first=first)]


def read_sentences(path: str, what: str, symbols: Collection[str] | None = None,
                   symbols_help: str = "", *, classic: bool = False,
                   first: bool = False) -> list[Expr]:
    """The sentences of a file (`-`: standard input), read under FILE_LIMIT; `what` names
    the file in errors ("knowledge file"), the rest as in `parse`."""
    text = read_text(path, what, FILE_LIMIT)
    return parse(text, "<stdin>" if path == "-" else path, symbols, symbols_help,
                 classic=classic, first=first)


def parse_lines(
    text: str,
    source: str = "<text>",
    symbols: Collection[str] | None = None,
    symbols_help: str = "",
    *,
    classic: bool = False,
    first: bool = False,
) -> list[tuple[int, Expr]]:
    """(line number, sentence) for each sentence of the text (with `first`, of the first
    one only)."""
    allowed = None if symbols is None else (frozenset(symbols), symbols_help)
    out = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        stripped = line.strip(WHITE)
        if classic and line and not stripped:
            raise LogicSyntaxError(source, number, 1, "a blank line must be empty; this one "
                                   "holds white space")
        if not stripped or stripped.startswith("#"):
            continue
        out.append((number, _LineParser(line, source, number, allowed).sentence()))
        if first:
            break
    return out


def parse_sentence(text: str, source: str = "<text>") -> Expr:
    """Exactly one sentence (comments and blank lines around it allowed)."""
    sentences = parse_lines(text, source)
    if len(sentences) != 1:
        line = sentences[1][0] if sentences else 1
        found = "no sentence" if not sentences else "more than one sentence"
        raise LogicSyntaxError(source, line, 1, f"expected one sentence, found {found}")
    return sentences[0][1]


class _LineParser:
    """Recursive descent over one line; `pos` is the index of the next character."""

    def __init__(
        self, line: str, source: str, number: int, allowed: tuple[frozenset[str], str] | None
    ) -> None:
        self.line, self.source, self.number, self.allowed = line, source, number, allowed
        self.pos = 0

    def error(self, problem: str, pos: int | None = None) -> LogicSyntaxError:
        column = (self.pos if pos is None else pos) + 1
        return LogicSyntaxError(self.source, self.number, column, problem)

    def peek(self) -> str:
        return self.line[self.pos] if self.pos < len(self.line) else ""

    def skip_white(self) -> None:
        while self.peek() and self.peek() in WHITE:
            self.pos += 1

    def word(self) -> str:
        start = self.pos
        while self.peek() and self.peek() in WORD_CHARS:
            self.pos += 1
        return self.line[start : self.pos]

    def sentence(self) -> Expr:
        self.skip_white()
        e = self.expression(depth=1)
        self.skip_white()
        if self.peek():
            if self.peek() == ")":
                raise self.error("unmatched ')'")
            raise self.error("text after the end of the sentence (one sentence per line)")
        return e

    def expression(self, depth: int) -> Expr:
        c = self.peek()
        if c == "(":
            return self.compound(depth)
        if c == ")":
            raise self.error("expected a symbol or '(', found ')'")
        if not c:
            raise self.error("the line ends where a symbol or '(' should be")
        return self.symbol()

    def symbol(self) -> Symbol:
        start = self.pos
        name = self.word()
        if not name:
            raise self.error(f"unexpected character {self.peek()!r}")
        after = self.peek()
        if after == "(":
            raise self.error("'(' must be preceded by white space")
        if after and after not in WHITE and after != ")":
            raise self.error(f"unexpected character {after!r} in a symbol")
        if name.lower() in ARITY:
            raise self.error(
                f"{name!r} is a connective, not a symbol: write ({name.lower()} ...)", start
            )
        if self.allowed is not None and name not in self.allowed[0]:
            hint = f" ({self.allowed[1]})" if self.allowed[1] else ""
            raise self.error(f"unknown symbol {name!r}{hint}", start)
        return Symbol(name)

    def compound(self, depth: int) -> Compound:
        start = self.pos
        if start > 0 and self.line[start - 1] not in WHITE:
            raise self.error("'(' must be preceded by white space")
        if depth > MAX_DEPTH:
            raise self.error(f"sentences nested more than {MAX_DEPTH} deep are not supported")
        self.pos += 1
        c = self.peek()
        if c and c in WHITE:
            raise self.error("no white space allowed between '(' and the connective")
        if c == ")":
            raise self.error("'()' has no connective")
        name = self.word()
        if not name:
            if not c:
                raise self.error("the line ends after '('")
            raise self.error(f"expected a connective after '(', found {c!r}")
        connective = name.lower()
        if connective not in ARITY:
            if self.peek() == ")":
                raise self.error(
                    f"a symbol is never parenthesised: write {name}, not ({name})", start
                )
            raise self.error(
                f"unknown connective {name!r} (expected one of: {', '.join(ARITY)})", start + 1
            )
        operands: list[Expr] = []
        while True:
            c = self.peek()
            if c == ")":
                break
            if not c:
                raise self.error(f"missing ')' for the '(' at column {start + 1}")
            if c == "(":
                raise self.error("'(' must be preceded by white space")
            if c not in WHITE:
                raise self.error(f"unexpected character {c!r} after {connective!r}")
            self.skip_white()
            if self.peek() == ")":
                break
            if not self.peek():
                raise self.error(f"missing ')' for the '(' at column {start + 1}")
            operands.append(self.expression(depth + 1))
        close = self.pos
        self.pos += 1
        after = self.peek()
        if after and after not in WHITE and after != ")":
            raise self.error("')' must be followed by white space or ')'", close)
        arity = ARITY[connective]
        if arity is not None and len(operands) != arity:
            words = {1: "one operand", 2: "two operands"}
            raise self.error(
                f"{connective!r} takes exactly {words[arity]}, not {len(operands)}", start
            )
        return Compound(connective, tuple(operands))
