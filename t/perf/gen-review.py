#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Review data of hostile shapes, for p0320 (issue 24, reliability case 55).

  gen-review.py trailers <n>     a patch and one reply giving it n
                                 distinct Reviewed-by trailers
  gen-review.py replies <n>      a patch and n replies, one Reviewed-by
                                 each, from its sender
  gen-review.py references <n>   a patch whose References holds n ids
  gen-review.py cc <n>           a patch mail Cc'ing n addresses
  gen-review.py rangediff <n>    a series of n patches as v1, and as v2
                                 with every patch changed by one line
  gen-review.py rangediff-repo <n>
                                 the same two versions as commits, for
                                 git range-diff: a fast-import stream of
                                 base, v1 and v2 (base..v1, base..v2)
  gen-review.py fast-import <n>  a fast-import stream: usb-next, and
                                 work-next one commit ahead whose
                                 refs/notes/maint record Cc's n people
                                 (what notify builds its list from)

Mails are mboxes on standard output, as git format-patch writes them.
"""
import sys

DATE = "Thu, 7 Apr 2005 15:13:13 -0700"


def mail(msgid, subject, body, frm="A U Thor <author@example.com>", extra=""):
    return ("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
            "From: %s\nDate: %s\nMessage-ID: <%s>\nSubject: %s\n%s\n%s\n"
            % (frm, DATE, msgid, subject, extra, body))


def diff(path, old, new):
    return ("---\n %s | 2 +-\n\ndiff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n"
            "@@ -1,3 +1,3 @@\n context\n-%s\n+%s\n context\n-- \n2.39.5\n\n"
            % (path, path, path, path, path, old, new))


def patch(extra=""):
    return mail("patch@example.com", "[PATCH] usb: fix the thing",
                "Fix it.\n\nSigned-off-by: A U Thor <author@example.com>\n" +
                diff("drivers/usb/core/hub.c", "old", "new"), extra=extra)


def reply(i, body, frm):
    return mail("reply%d@example.com" % i, "Re: [PATCH] usb: fix the thing", body, frm=frm,
                extra="In-Reply-To: <patch@example.com>\nReferences: <patch@example.com>\n")


def trailers(n):
    body = "Looks good.\n\n" + "".join("Reviewed-by: Reviewer %d <rev%d@example.org>\n" % (i, i)
                                       for i in range(n))
    return patch() + reply(0, body, "Reviewer 0 <rev0@example.org>")


def replies(n):
    out = [patch()]
    for i in range(n):
        who = "Reviewer %d <rev%d@example.org>" % (i, i)
        out.append(reply(i, "Looks good.\n\nReviewed-by: %s\n" % who, who))
    return "".join(out)


def folded(name, items):
    return name + ": " + ",\n ".join(items) + "\n"


def references(n):
    return patch(folded("References", ["<ref%d@example.org>" % i for i in range(n)]).replace(",", ""))


def cc(n):
    return patch(folded("Cc", ["Person %d <p%d@example.org>" % (i, i) for i in range(n)]))


def rangediff(n):
    out = []
    for v, tag in ((1, "PATCH"), (2, "PATCH v2")):
        cover = "cover-v%d@example.com" % v
        out.append(mail(cover, "[%s %0*d/%d] usb: many fixes" % (tag, len(str(n)), 0, n),
                        "A series of %d.\n" % n))
        for k in range(1, n + 1):
            out.append(mail("v%d-p%d@example.com" % (v, k),
                            "[%s %0*d/%d] usb: fix thing %d" % (tag, len(str(n)), k, n, k),
                            "Fix thing %d.\n\nSigned-off-by: A U Thor <author@example.com>\n" % k +
                            diff("drivers/usb/f%d.c" % k, "old %d" % k,
                                 "new %d%s" % (k, " (v2)" if v == 2 else "")),
                            extra="In-Reply-To: <%s>\nReferences: <%s>\n" % (cover, cover)))
    return "".join(out)


def data(s):
    b = s.encode()
    return "data %d\n%s\n" % (len(b), s)


def rangediff_repo(n):
    who = "A U Thor <author@example.com> 1345500000 +0200"
    out = ["commit refs/heads/base\nmark :1\ncommitter %s\n" % who, data("base")]
    out += ["M 100644 inline drivers/usb/f%d.c\n%s" % (k, data("context\nold %d\ncontext\n" % k))
            for k in range(1, n + 1)]
    for v in (1, 2):
        out.append("reset refs/heads/v%d\nfrom :1\n" % v)
        for k in range(1, n + 1):
            out.append("commit refs/heads/v%d\nauthor %s\ncommitter %s\n" % (v, who, who))
            out.append(data("usb: fix thing %d\n\nFix thing %d.\n\n"
                            "Signed-off-by: A U Thor <author@example.com>" % (k, k)))
            out.append("M 100644 inline drivers/usb/f%d.c\n%s"
                       % (k, data("context\nnew %d%s\ncontext\n" % (k, " (v2)" if v == 2 else ""))))
    return "".join(out)


def fast_import(n):
    who = "Greg Kroah-Hartman <gregkh@linuxfoundation.org>"
    note = ("Message-ID: <patch@example.com>\nFrom: A U Thor <author@example.com>\n"
            "Subject: [PATCH] usb: fix the thing\nTo: %s\n" % who +
            "\n".join("Cc: Person %d <p%d@example.org>" % (i, i) for i in range(n)))
    return ("reset refs/heads/usb-next\ncommit refs/heads/usb-next\nmark :1\n"
            "committer %s 1345500000 +0200\n" % who + data("base") +
            "commit refs/heads/work-next\nmark :2\n"
            "author A U Thor <author@example.com> 1345500001 +0200\n"
            "committer %s 1345500001 +0200\n" % who +
            data("usb: fix the thing\n\nSigned-off-by: A U Thor <author@example.com>") +
            "from :1\n" +
            "commit refs/notes/maint\ncommitter %s 1345600000 +0200\n" % who + data("notes") +
            "N inline :2\n" + data(note))


if __name__ == "__main__":
    kinds = {"trailers": trailers, "replies": replies, "references": references, "cc": cc,
             "rangediff": rangediff,
             "rangediff-repo": rangediff_repo, "fast-import": fast_import}
    if len(sys.argv) != 3 or sys.argv[1] not in kinds:
        sys.exit("usage: gen-review.py %s <n>" % "|".join(kinds))
    sys.stdout.write(kinds[sys.argv[1]](int(sys.argv[2])))
