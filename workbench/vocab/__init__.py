"""Vocabularies: immutable token sets with ids, compiled once into tries.

* :mod:`.alphabets` — spelling a plain word in a vocabulary's alphabet (identity, GPT-2
  byte-level, SentencePiece ``▁``), explicitly, never guessed;
* :mod:`.formats` — reading token lists, JSON, ``tokenizer.json``, ``encoder.json`` and
  SentencePiece ``.model`` files;
* :mod:`.vocabulary` — :class:`Vocabulary` itself.
"""

from .alphabets import ALPHABETS, SP_SPACE, bytes_to_unicode, spell, unspell
from .formats import VocabularyFormatError
from .vocabulary import Vocabulary

__all__ = ["ALPHABETS", "SP_SPACE", "Vocabulary", "VocabularyFormatError", "bytes_to_unicode",
           "spell", "unspell"]
