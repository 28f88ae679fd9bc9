"""Python copy of the project's `word` tokenizer (design step 6, self-check).

Token indices in the .align files refer to this tokenizer: whitespace
separates chunks; a token is a maximal run of letters/marks/digits, keeping
'-' between two word characters (vingt-deux) and '.'/',' between two digits
(3.5); an apostrophe between two letters ends the token and stays on it
(l'homme -> l' homme); any other character is a token of its own.
output.py re-tokenizes every written line with word_tokenize() and aborts if
the result differs from the generator's tokens.
"""

import unicodedata



def _is_word_char(c):
    return unicodedata.category(c)[0] in ("L", "M", "N")


def _is_letter(c):
    return unicodedata.category(c)[0] == "L"


def word_tokenize(line):
    """Python mirror of the project's C++ `word` tokenizer (see module doc)."""
    toks = []
    for chunk in line.split():
        cur = ""
        n = len(chunk)
        for i, c in enumerate(chunk):
            prev = chunk[i - 1] if i > 0 else ""
            nxt = chunk[i + 1] if i + 1 < n else ""
            if _is_word_char(c):
                cur += c
            elif c == "-" and cur and prev and nxt and _is_word_char(prev) and _is_word_char(nxt):
                cur += c
            elif (c in ".," and cur and prev and nxt and unicodedata.category(prev)[0] == "N"
                  and unicodedata.category(nxt)[0] == "N"):
                cur += c
            elif c in "'\u2019" and cur and prev and nxt and _is_letter(prev) and _is_letter(nxt):
                toks.append(cur + c)
                cur = ""
            else:
                if cur:
                    toks.append(cur)
                    cur = ""
                toks.append(c)
        if cur:
            toks.append(cur)
    return toks
