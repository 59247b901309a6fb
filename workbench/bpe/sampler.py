"""BPE and BPE-dropout (Provilkov et al., 2020) as samplers with GRaMPa's interface.

:class:`BPESampler` wraps a :class:`workbench.bpe.BPEModel` (byte-level merges, seeded
dropout: word ``w`` of a call on its own stream) and maps its tokens onto a
:class:`workbench.Vocabulary`. :func:`merges_from_vocabulary` derives merges from a
SentencePiece BPE vocabulary such as the shipped ``"bpe-8k"`` (pieces in score order; each
multi-character piece is the merge of the two symbols BPE with the earlier merges leaves
when it encodes that piece), so BPE runs on the same vocabulary GRaMPa samples from. In the
``sentencepiece`` alphabet the marker ``▁`` is carried as the space byte inside the model.

Words in the ``byte-level`` alphabet (GPT-2's ``Ġ``) are carried as their bytes, so
``BPESampler(gpt2, model=BPEModel.from_gpt2())`` samples GPT-2's own merges.
:meth:`BPESampler.law` gives the exact law (:mod:`.laws`).

This module does not train BPE (:mod:`workbench.bpe`) and does not pretokenise text.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"], scores=[-2.0, -3.0, 0.0, -1.0])
>>> merges_from_vocabulary(v)
[('a', 'b'), ('ab', 'b')]
>>> BPESampler(v, seed=0).sample("abba")
['abb', 'a']
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from .._core.errors import ArgumentTypeError
from .._core.gcpause import gc_paused
from .._core.seeds import base_seed
from .._core.validate import check_probability, check_work
from ..lattice import (
    SegmentationError,
    check_vocab,
    check_word,
    count_segmentations,
    no_segmentation_reason,
)
from ..laws import SegmentationLaw
from ..vocab import Vocabulary
from ..wordlevel import TokenSampler, as_words, check_request
from . import _dropout, _encode, laws
from . import semantics as semantics_
from .bytelevel import from_bytelevel, to_bytelevel
from .model import BPEModel, dropout_chunks

_MARK = "\u2581"


def _bpe(piece: str, ranks: dict[tuple[str, str], int]) -> list[str]:
    """Plain BPE of one string under ``ranks`` (lowest rank first, leftmost occurrence)."""
    sym = list(piece)
    while len(sym) > 1:
        best, at = None, -1
        for k in range(len(sym) - 1):
            r = ranks.get((sym[k], sym[k + 1]))
            if r is not None and (best is None or r < best):
                best, at = r, k
        if best is None:
            break
        sym[at:at + 2] = [sym[at] + sym[at + 1]]
    return sym


def merges_from_vocabulary(vocab: Vocabulary) -> list[tuple[str, str]]:
    """Merges of a BPE vocabulary whose scores rank its pieces (higher = merged earlier).

    Single characters are the alphabet; every longer piece, in descending score order (ties
    by id), becomes the merge of the two symbols that BPE with the earlier merges leaves
    when it encodes the piece (as SentencePiece would reach it). Pieces that do not encode
    to two symbols are skipped.
    """
    vocab = check_vocab(vocab)
    if vocab.is_infinite or vocab.scores is None:
        raise ArgumentTypeError("merges_from_vocabulary needs a finite vocabulary with scores")
    order = sorted(range(len(vocab)), key=lambda k: (-vocab.scores[k], int(vocab.ids[k])))
    ranks: dict[tuple[str, str], int] = {}
    merges = []
    for k in order:
        piece = vocab.tokens[k]
        if len(piece) == 1:
            continue
        sym = _bpe(piece, ranks)
        if len(sym) == 2 and (sym[0], sym[1]) not in ranks:
            ranks[(sym[0], sym[1])] = len(merges)
            merges.append((sym[0], sym[1]))
    return merges


#: Units (bytes × longest token²) per second of counting a word's BPE-dropout states when
#: the count never passes the budget (so never stops early): measured 9.0e6 on the reference
#: machine (100 kB that no merge joins), halved for slower machines. A word whose count does
#: pass the budget stops after a few bytes (1 MB of "ab": 0.03 s).
COUNT_RATE = 4.5e6

class BPESampler(TokenSampler):
    """BPE with optional dropout on a vocabulary, through :class:`workbench.bpe.BPEModel`.

    Parameters
    ----------
    vocab : Vocabulary
        Finite. Its tokens are the ids :meth:`encode` returns.
    dropout : float in [0, 1], default 0.0
        BPE-dropout probability ``p_d`` (0: deterministic BPE).
    merges : list of (str, str), optional
        Merge list in the vocabulary's alphabet; default :func:`merges_from_vocabulary`.
    model : BPEModel, optional
        A ready model instead of ``merges`` (its tokens must be spelled like ``vocab``'s,
        with ``▁`` as the space byte for the ``sentencepiece`` alphabet).
    seed : int, numpy.random.Generator or None
    semantics : {"reference", "hf", "sentencepiece", "subword-nmt"}, default "reference"
        Which BPE-dropout procedure :meth:`tokenize` and :meth:`law` follow (the same for
        ``dropout`` 0 or 1): Provilkov et al.'s reference code (the kernel), HF
        ``tokenizers``, SentencePiece or subword-nmt; see :mod:`workbench.bpe.semantics`.
    """

    def __init__(self, vocab: Vocabulary, *, dropout: float = 0.0,
                 merges: Sequence[tuple[str, str]] | None = None,
                 model: BPEModel | None = None,
                 seed: int | np.random.Generator | None = None,
                 semantics: str = "reference") -> None:
        vocab = check_vocab(vocab)
        if vocab.is_infinite:
            raise ArgumentTypeError("BPESampler needs a finite vocabulary")
        super().__init__(vocab, seed)
        self.dropout = check_probability(dropout, "dropout")
        self.semantics = semantics_.check_semantics(semantics)
        if model is None:
            pairs = merges_from_vocabulary(vocab) if merges is None else list(merges)
            model = BPEModel(self._byte_merges(vocab, pairs))
        if not isinstance(model, BPEModel):
            raise ArgumentTypeError("model must be a workbench.bpe.BPEModel, not "
                                    f"{type(model).__name__}")
        self.model = model
        size = max(model.vocab) + 1
        self._token = [""] * size
        self._vid = np.full(size, -1, dtype=np.int64)
        for i, raw in model.vocab.items():
            tok = self._spell_raw(raw)
            self._token[i] = tok
            if tok in vocab:
                self._vid[i] = vocab.id_of(tok)

    def _spell_raw(self, raw: bytes) -> str:
        """A model token's bytes in the vocabulary's alphabet."""
        if self.vocab.alphabet == "byte-level":
            return to_bytelevel(raw)
        text = raw.decode("utf-8", errors="replace")
        return text.replace(" ", _MARK) if self.vocab.alphabet == "sentencepiece" else text

    def _raw(self, text: str) -> bytes:
        """The bytes of ``text`` (in the vocabulary's alphabet) inside the model."""
        if self.vocab.alphabet == "byte-level":
            return from_bytelevel(text)
        if self.vocab.alphabet == "sentencepiece":
            text = text.replace(_MARK, " ")
        return text.encode("utf-8")

    def _unspell(self, text: str) -> str:
        """A word as the model's chunk (str; a byte-level word must be whole UTF-8)."""
        if self.vocab.alphabet == "byte-level":
            try:
                return from_bytelevel(text).decode("utf-8")
            except UnicodeDecodeError:
                raise SegmentationError(f"{text!r:.60} is not whole UTF-8 characters in the "
                                        "byte-level alphabet; BPE encodes text") from None
        return text.replace(_MARK, " ") if self.vocab.alphabet == "sentencepiece" else text

    def _byte_merges(self, vocab: Vocabulary, pairs) -> list[tuple[bytes, bytes]]:
        out: list[tuple[bytes, bytes]] = []
        seen = set()
        for ch in sorted(vocab.characters):  # multi-byte characters are built first
            raw = self._raw(ch)
            for k in range(2, len(raw) + 1):
                if raw[:k] not in seen:
                    out.append((raw[:k - 1], raw[k - 1:k]))
                    seen.add(raw[:k])
        for a, b in pairs:
            out.append((self._raw(a), self._raw(b)))
        return out

    def __repr__(self) -> str:
        extra = "" if self.semantics == "reference" else f", semantics={self.semantics!r}"
        return f"BPESampler({self.vocab!r}, dropout={self.dropout}{extra})"

    def _check_chars(self, w: str) -> None:
        """As GRaMPa: a word in the vocabulary's alphabet, or SegmentationError."""
        chars = self.vocab.characters
        if not chars.issuperset(w):
            bad = next(c for c in w if c not in chars)
            raise SegmentationError(
                no_segmentation_reason(w, self.vocab) or f"no segmentation of {w!r:.60}: "
                f"character {bad!r} occurs in no token")

    def _ids(self, words: list[str]) -> list[list[int]]:
        check_request(sum(map(len, words)), f"a batch of {len(words):,} words")
        for w in words:
            self._check_chars(w)
        chunks = [self._unspell(w) for w in words]
        plain = self.dropout == 0 and self.semantics != "sentencepiece"  # = plain BPE then
        if self.semantics == "reference" or plain:
            return dropout_chunks(self.model, chunks, self.dropout, self._rng)
        return self._sample_chunks(chunks)

    def _sample_chunks(self, chunks: list[str]) -> list[list[int]]:
        """Model ids of ``chunks`` under a non-reference semantics (:mod:`._dropout`)."""
        # the queue kernels scan the queue at every pop: up to cubic in the chunk's length
        check_work(sum(len(c) ** 3 + 16 for c in chunks), f"BPE-dropout ({self.semantics}) "
                   f"of {len(chunks):,} words", rate=1e8, hint=" (ask for fewer samples)")
        seed = np.uint64(base_seed(self._rng))
        stop = self.model._stop_ids
        raw = [c.encode("utf-8") for c in chunks]
        sym = np.frombuffer(b"".join(raw), dtype=np.uint8).astype(np.int64)
        offsets = np.zeros(len(raw) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in raw], out=offsets[1:])
        table, rank, made = (self._piece_table if self.semantics == "sentencepiece"
                             else self._merge_table)
        mode = {"hf": _dropout.HF, "sentencepiece": _dropout.SENTENCEPIECE,
                "subword-nmt": _dropout.SUBWORD_NMT}[self.semantics]
        out, offs = _dropout.sample_chunks(sym, offsets, table, rank, made,
                                           float(self.dropout), seed, mode)
        flat = self.model._sym_ids[out].tolist()
        bounds = offs.tolist()
        return [[stop[c]] if c in stop else flat[bounds[i]:bounds[i + 1]]
                for i, c in enumerate(chunks)]

    @cached_property
    def _merge_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The merges as :mod:`._dropout` reads them: (pair table, rank, made)."""
        pairs = self.model._sym_merges.astype(np.int64)
        rank = np.arange(pairs.shape[0], dtype=np.int64)
        return _encode.build_merge_table(pairs), rank, rank + 256

    @cached_property
    def _pieces(self) -> dict[bytes, tuple[int, int]]:
        """Bytes of a merge's token → (rank, symbol) of the first merge that makes them."""
        pieces: dict[bytes, tuple[int, int]] = {}
        for k, b in enumerate(self._sym_bytes[256:]):
            pieces.setdefault(b, (k, 256 + k))
        return pieces

    @cached_property
    def _sym_bytes(self) -> list[bytes]:
        """The bytes of each kernel symbol."""
        vocab = self.model.vocab
        return [vocab[i] for i in self.model._sym_ids.tolist()]

    @cached_property
    def _piece_ranks(self) -> semantics_.PieceRanks:
        """SentencePiece's pair table over kernel symbols (any two halves of a token)."""
        return semantics_.PieceRanks(self._sym_bytes, self._pieces)

    @cached_property
    def _piece_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:attr:`_piece_ranks` as :mod:`._dropout` reads it: (pair table, rank, made)."""
        first: dict[bytes, int] = {bytes([b]): b for b in range(256)}
        for b, (_, s) in self._pieces.items():
            first.setdefault(b, s)
        rows = []
        for b, (k, s) in self._pieces.items():
            for t in range(1, len(b)):
                left, right = first.get(b[:t]), first.get(b[t:])
                if left is not None and right is not None:
                    rows.append((left, right, k, s))
        arr = np.array(rows, dtype=np.int64).reshape(-1, 4)
        return _encode.build_merge_table(arr[:, :2].copy()), arr[:, 2].copy(), arr[:, 3].copy()

    @cached_property
    def _ranks(self) -> dict[tuple[int, int], tuple[int, int]]:
        """The kernel's merges: ``(left, right)`` symbols → ``(rank, merged symbol)``."""
        pairs = self.model._sym_merges.tolist()
        return {(a, b): (k, 256 + k) for k, (a, b) in enumerate(pairs)}

    def _counted(self, word: str, raw: bytes, ranks: laws.Ranks) -> tuple[int, bool]:
        """The word's reachable segmentations and whether the compiled route takes it, its
        law's states checked against the budget first (refused at once if over).

        Dropout 0 or 1 is one segmentation (every merge, or none), one state per step of any
        semantics' propagation: nothing to count, no budget to refuse it by."""
        if self.dropout == 0 or self.dropout == 1:
            return 1, False
        check_work(len(raw) * self._longest ** 2, f"counting the BPE-dropout states of "
                   f"{word!r:.60}", rate=COUNT_RATE)
        count = laws.count_states(tuple(raw), ranks, self._longest, stop_above=laws.MAX_STATES)
        if count > laws.MAX_STATES:  # every estimate is >= the reachable segmentations
            laws.check_states(count, repr(word)[:62], len(raw), at_least=True)
        fast = laws.compiled_route(self.semantics, len(raw))
        states, how = semantics_.estimated_states(self.semantics, count, fast)
        laws.check_states(states, repr(word)[:62], len(raw), how)
        return count, fast

    def law(self, word: str) -> SegmentationLaw:
        """The exact law of :meth:`sample` on ``word`` under this sampler's ``semantics``.

        Propagates over the reachable segmentations (:mod:`workbench.bpe.laws`; the other
        semantics in :mod:`workbench.bpe.semantics`, whose states also carry the queue or the
        blocked pairs), counted first: a word needing more than
        :data:`workbench.bpe.laws.MAX_STATES` segmentations (or more time than the budget,
        states per segmentation as :func:`workbench.bpe.semantics.estimated_states` says) is
        refused at once with that number; HF's propagation also stops at ``MAX_STATES``
        states it meets.
        ``deterministic`` is the segmentation at ``p = 0``; ``n_segmentations`` counts the
        word's segmentations in the vocabulary (``None`` when the model makes tokens outside it).

        ``failure_mass`` is the probability that dropout leaves a multi-byte character split
        into bytes, which a vocabulary not spelled in bytes cannot write: :meth:`tokenize`
        then returns ``"\ufffd"`` tokens and :meth:`encode` raises. It is 0 for byte-level
        vocabularies (GPT-2's) and for ASCII words.
        """
        word = check_word(word)
        self._check_chars(word)
        chunk = self._unspell(word)
        stop = self.model._stop_ids.get(chunk)
        if stop is not None:
            law = {(self._token[stop],): 1 + 0 * self.dropout}
            return SegmentationLaw(word, law, deterministic=(self._token[stop],))
        raw = chunk.encode("utf-8")
        ranks = self._piece_ranks if self.semantics == "sentencepiece" else self._ranks
        # the count stops past the budget (it only grows with the prefix), so a long word
        # is refused after its first bytes; counting a whole word is checked for time first
        count, fast = self._counted(word, raw, ranks)
        token = self._sym_tokens
        syms = tuple(raw)
        propagate = semantics_.LAWS.get(self.semantics, laws.dropout_law)
        det = tuple(token[s] for s in next(iter(propagate(syms, ranks, 0))))
        with gc_paused():  # up to 10^6 lasting tuples: a collection can free none of them
            states = None
            if fast:
                states = laws.fast_dropout_states(syms, ranks, self.dropout, self._longest,
                                                  self.semantics)
                if states is None:  # declined (a span two merges make): the Python route's
                    states_, how = semantics_.estimated_states(self.semantics, count, False)
                    laws.check_states(states_, repr(word)[:62], len(raw), how)
            suspect = [] if states is None else self._suspect_spans(word, raw)
            arrays = None if states is None else states.arrays(token.__getitem__, suspect)
            if arrays is not None:  # every state spells the word: no tuple per state
                labels, pieces, offsets, masses = arrays
                in_vocab = all(labels[i] in self.vocab for i in
                               np.flatnonzero(np.bincount(pieces)).tolist())
                return SegmentationLaw.from_arrays(
                    word, labels, pieces, offsets, masses, deterministic=det,
                    n_segmentations=(count_segmentations(word, self.vocab) or None)
                    if in_vocab else None)
            if states is not None:
                probs, odd, used = states.split_law(token.__getitem__, suspect)
            else:  # a chunk or semantics the compiled route does not take
                run = (functools.partial(propagate, max_states=laws.MAX_STATES)
                       if self.semantics == "hf" else propagate)
                probs, odd, used = {}, {}, set()
                for state, p in run(syms, ranks, self.dropout).items():
                    seg = tuple([token[s] for s in state])  # two merges may spell one token
                    odd[seg] = odd.get(seg, 0) + p
            fail = 0 * self.dropout
            if odd and isinstance(probs, laws.ItemList):
                probs = probs.to_dict()
            for seg, p in odd.items():  # a character split into bytes fails
                if "".join(seg) != word:
                    fail += p
                else:
                    probs[seg] = p
                    used.update(seg)
            in_vocab = all(t in self.vocab for t in used)
            return SegmentationLaw(word, probs, failure_mass=fail, deterministic=det,
                                   n_segmentations=(count_segmentations(word, self.vocab)
                                                    or None) if in_vocab else None)

    def _suspect_spans(self, word: str, raw: bytes) -> list[tuple[int, int]]:
        """Spans ``i:j`` of ``raw`` whose token may not spell ``word``'s text there.

        A span cut at UTF-8 character boundaries spells its characters (the tokens are their
        bytes spelled in the vocabulary's alphabet), so a segmentation of such spans spells
        the word; the others are checked one by one.
        """
        n = len(raw)
        if self._spell_raw(raw) != word:
            return [(i, j) for i in range(n) for j in range(i + 1, n + 1)]
        cut = [i == n or (raw[i] & 0xC0) != 0x80 for i in range(n + 1)]
        return [(i, j) for i in range(n) for j in range(i + 1, n + 1)
                if not (cut[i] and cut[j])]

    @cached_property
    def _sym_tokens(self) -> list[str]:
        """The token each kernel symbol spells (bytes, then one per merge)."""
        token = self._token
        return [token[i] for i in self.model._sym_ids.tolist()]

    @cached_property
    def _longest(self) -> int:
        """Bytes of the model's longest token."""
        return max(map(len, self.model.vocab.values()), default=1)

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One (dropout-)BPE segmentation per word (word ``w`` on its own random stream)."""
        words = as_words(words)
        token = self._token
        return [[token[i] for i in ids] for ids in self._ids(words)]

    def encode_flat(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Ids in ``vocab``; raises :class:`SegmentationError` for a token outside it."""
        words = as_words(words)
        lists = self._ids(words)
        offsets = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in lists], out=offsets[1:])
        flat = np.fromiter((i for x in lists for i in x), dtype=np.int64, count=int(offsets[-1]))
        ids = self._vid[flat]
        if (ids < 0).any():
            k = int(np.flatnonzero(ids < 0)[0])
            w = int(np.searchsorted(offsets, k, side="right") - 1)
            raise SegmentationError(f"BPE token {self._token[flat[k]]!r} of {words[w]!r} is not "
                                    "in the vocabulary")
        return ids.astype(np.int32), offsets
