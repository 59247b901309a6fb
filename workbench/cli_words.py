"""The words a user types on the command line, spelled, labelled and explained.

``python -m workbench`` spells them in a vocabulary's alphabet, labels them, and explains a
spelling or a missing segmentation:

* :func:`label` — a word as a printed label;
* :func:`spelled` — the typed words in the vocabulary's alphabet (``--space`` prefixes a space);
* :func:`vocab_label` — the vocabulary's name as printed;
* :func:`spelling_note` — what the reader may not expect about a word's spelling;
* :func:`reason` — why a spelled word has no segmentation.

It parses no argument and runs no command (that is :mod:`workbench.__main__`, which passes its
parsed ``args``: ``space``, ``vocab``, ``ell_min``, ``direction``).

>>> label("abc"), label(""), label(" hi")
('abc', "''", "' hi'")
"""

from __future__ import annotations

import argparse

__all__ = ["label", "reason", "spelled", "spelling_note", "vocab_label"]


def label(word: str) -> str:
    """A word as a label: as is when plain, else its repr (the empty word is ``''``)."""
    return word if word and word.isprintable() and word.strip() == word else repr(word)


def spelled(args: argparse.Namespace, vocab) -> list[str]:
    """``args.words`` in ``vocab``'s alphabet, each after a space with ``args.space``."""
    return [vocab.to_alphabet((" " if args.space else "") + w) for w in args.words]


def vocab_label(args: argparse.Namespace, vocab) -> str:
    """The vocabulary's name, else what the user typed for it (a file's path)."""
    return vocab.name or args.vocab


def spelling_note(args: argparse.Namespace, vocab, word: str, spelled: str) -> str | None:
    """What the reader may not expect about how ``word`` was spelled, or None.

    Says the spelling when it differs from what was typed; when the typed word holds the
    alphabet's own space marker (``Ġtokenization`` copied from a token list, which a
    byte-level alphabet spells ``Äłtokenization``), how to type the word after a space; else,
    without ``--space``, the word's spelling after a space when the vocabulary has tokens for
    it and it differs.
    """
    notes = []
    name = vocab_label(args, vocab)
    marker = vocab.to_alphabet(" ")
    if spelled != word:
        notes.append(f"{word!r} is spelled {spelled!r} in {name}'s alphabet ({vocab.alphabet})")
        if marker != " " and marker in word:  # e.g. 'Ġtokenization' typed as printed
            plain = vocab.from_alphabet(word)
            notes.append(f"{marker!r} is how {name} writes a space: for the word after a space "
                         f"type {plain.lstrip(' ')!r} with --space (or {plain!r})")
            return "; ".join(notes)
    if not args.space:
        after_space = vocab.to_alphabet(" " + word)
        if after_space != spelled and any(t.startswith(marker) for t in vocab.tokens):
            notes.append(f"{spelled!r} is segmented as a word-interior string; the word after "
                         f"a space is {after_space!r} (add --space)")
    return "; ".join(notes) or None


def reason(args: argparse.Namespace, vocab, word: str) -> str:
    """Why ``word`` (spelled) has no segmentation, naming the toy vocabulary when it is used."""
    from workbench.datasets import FIGURE1_TOKENS
    from workbench.lattice import no_segmentation_reason

    reason = no_segmentation_reason(word, vocab, args.ell_min, args.direction, spelled=True)
    if vocab.name == "figure-1":
        reason += (f" (figure-1 is the toy vocabulary of GRaMPa's Figure 1: the uppercase "
                   f"tokens {', '.join(FIGURE1_TOKENS)}, for the word 'GRAMPA')")
    return reason
