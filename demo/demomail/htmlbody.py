"""The HTML alternative of a plain-text message, as a mail client would send it:
paragraphs, quotes as nested <blockquote type="cite">, a signature block and
inline images referenced by cid: URLs."""
import html


def _depth(line):
    """Quote depth of a line ('> > x' and '>>x' are both 2) and its text."""
    depth, rest = 0, line
    while rest.startswith(">"):
        depth += 1
        rest = rest[2:] if rest.startswith("> ") else rest[1:]
    return depth, rest


def _groups(lines):
    """Consecutive lines of the same quote depth, as (depth, [texts])."""
    groups = []
    for line in lines:
        depth, text = _depth(line)
        if groups and groups[-1][0] == depth:
            groups[-1][1].append(text)
        else:
            groups.append((depth, [text]))
    return groups


def _paragraphs(texts):
    blocks = "\n".join(texts).strip("\n").split("\n\n")
    return "".join("<p>" + html.escape(block).replace("\n", "<br>\n") + "</p>\n"
                   for block in blocks if block.strip())


def to_html(plain, images=()):
    """An HTML document for `plain`; `images` are (content_id, filename) pairs."""
    main, _, signature = plain.partition("\n-- \n")
    parts = []
    for depth, texts in _groups(main.split("\n")):
        inner = _paragraphs(texts)
        if inner:
            parts.append('<blockquote type="cite">\n' * depth + inner + "</blockquote>\n" * depth)
    for content_id, filename in images:
        parts.append(f'<p><img src="cid:{content_id}" alt="{html.escape(filename)}"></p>\n')
    if signature:
        parts.append('<div class="signature">-- <br>\n'
                     + html.escape(signature.strip("\n")).replace("\n", "<br>\n") + "</div>\n")
    return ('<!DOCTYPE html>\n<html>\n<head>\n'
            '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">\n</head>\n'
            '<body style="font-family: Helvetica, Arial, sans-serif; font-size: 14px;">\n'
            + "".join(parts) + "</body>\n</html>\n")
