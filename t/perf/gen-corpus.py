#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The corpus generator behind t/perf/gen-repo.sh (read its usage there).
#
# Everything is derived from one random.Random per purpose, seeded with
# fixed values, and every date and identity is pinned, so the same
# arguments give the same repository (commit ids) and the same mailboxes.
# History is written with one `git fast-import` stream; the mails come
# from `git format-patch`, then get the headers a mailing list adds
# (subject prefixes, Message-ID, threading, To/Cc), interleaved with
# replies, cover letters and earlier versions of the series.

import base64
import math
import os
import quopri
import random
import re
import shutil
import subprocess
import sys
import time

SEED = 20120822  # the article's date

# --------------------------------------------------------------------------
# Identities

FIRST = ["Greg", "Alan", "Sarah", "Felipe", "Johan", "Oliver", "Hans", "David",
         "Eric", "Jakub", "Paolo", "Ted", "Jan", "Christoph", "Dave", "Josef",
         "Chris", "Trond", "Anna", "Mika", "Andy", "Heikki", "Mathias", "Peter",
         "Ingo", "Thomas", "Linus", "Arnd", "Mark", "Rob", "Krzysztof", "Kalle",
         "Johannes", "Luca", "Emmanuel", "Stefan", "Laurent", "Hannes", "Martin",
         "Bjorn", "Lorenzo", "Shawn", "Sascha", "Maxime", "Chen", "Wei", "Li",
         "Yoshihiro", "Takashi", "Kees", "Dan", "Julia", "Wolfram", "Vinod"]
LAST = ["Kroah-Hartman", "Stern", "Sharp", "Balbi", "Hovold", "Neukum", "de Goede",
        "Miller", "Dumazet", "Kicinski", "Abeni", "Ts'o", "Kara", "Hellwig",
        "Chinner", "Bacik", "Mason", "Myklebust", "Schumaker", "Westerberg",
        "Shevchenko", "Krogerus", "Nyman", "Zijlstra", "Molnar", "Gleixner",
        "Torvalds", "Bergmann", "Brown", "Herring", "Kozlowski", "Valo", "Berg",
        "Coelho", "Grumbach", "Richter", "Pinchart", "Reinecke", "Petersen",
        "Helgaas", "Pieralisi", "Guo", "Hauer", "Ripard", "Chen", "Wang", "Li",
        "Shimoda", "Iwai", "Cook", "Carpenter", "Lawall", "Sang", "Koul"]
# Authors whose names need RFC 2047 in a From: header.
NON_ASCII = ["Jürgen Groß", "Uwe Kleine-König", "Paweł Laszczak", "Ville Syrjälä",
             "Bartosz Gołaszewski", "Thomas Weißschuh", "Rafał Miłecki",
             "Jérôme Pouiller", "Niklas Söderlund", "Michał Mirosław",
             "Toke Høiland-Jørgensen", "José Expósito", "Ilpo Järvinen",
             "Maíra Canal", "Łukasz Stelmach", "Zoltán Böszörményi",
             "张三丰", "山田太郎", "Дмитрий Торохов", "Sébastien Szymanski"]
DOMAINS = ["kernel.org", "linuxfoundation.org", "suse.com", "redhat.com",
           "intel.com", "google.com", "linaro.org", "gmail.com", "arm.com",
           "nvidia.com", "collabora.com", "bootlin.com", "pengutronix.de"]
LISTS = {"usb": "linux-usb@vger.kernel.org", "net": "netdev@vger.kernel.org",
         "fs": "linux-fsdevel@vger.kernel.org", "gpu": "dri-devel@lists.freedesktop.org",
         "scsi": "linux-scsi@vger.kernel.org", "input": "linux-input@vger.kernel.org",
         "sound": "alsa-devel@alsa-project.org", "mm": "linux-mm@kvack.org",
         "arch": "linux-arm-kernel@lists.infradead.org", "kernel": "linux-kernel@vger.kernel.org",
         "doc": "linux-doc@vger.kernel.org"}


def ascii_of(name):
    table = str.maketrans("üßöäłóżśćńęąéèíáøåčřžšýÜÖÄŁŚŻ", "usoalozscneaeeiaoacrzsyUOALSZ")
    s = name.translate(table)
    s = "".join(c for c in s if c.isascii() and (c.isalnum() or c in " -"))
    return s.strip() or "dev"


def make_people(rng, n):
    people = []
    seen = set()
    for nm in NON_ASCII:
        people.append(nm)
    while len(people) < n:
        nm = rng.choice(FIRST) + " " + rng.choice(LAST)
        if nm in seen:
            continue
        seen.add(nm)
        people.append(nm)
    out = []
    for i, nm in enumerate(people):
        local = ascii_of(nm).lower().replace(" ", ".").replace("'", "")
        if not local or local == "dev":
            local = "dev%d" % i
        out.append((nm, "%s@%s" % (local, DOMAINS[i % len(DOMAINS)]),
                    rng.choice(["+0000", "+0100", "+0200", "-0700", "+0800", "+0900", "-0400"])))
    rng.shuffle(out)
    return out

# --------------------------------------------------------------------------
# The tree: kernel-like directories, C files generated from templates.

SUBSYSTEMS = [
    # (key, weight, directories, subject prefix)
    ("usb", 16, ["drivers/usb/core", "drivers/usb/host", "drivers/usb/storage",
                 "drivers/usb/serial", "drivers/usb/gadget/udc", "drivers/usb/gadget/function",
                 "drivers/usb/misc", "drivers/usb/class", "drivers/usb/dwc3", "drivers/usb/typec",
                 "include/linux/usb"], "usb"),
    ("net", 18, ["drivers/net/ethernet/intel/e1000e", "drivers/net/ethernet/intel/igb",
                 "drivers/net/ethernet/realtek", "drivers/net/ethernet/broadcom",
                 "drivers/net/wireless/ath/ath9k", "drivers/net/wireless/intel/iwlwifi",
                 "drivers/net/phy", "drivers/net/usb", "drivers/net/can",
                 "net/core", "net/ipv4", "net/ipv6", "net/bluetooth", "include/net"], "net"),
    ("fs", 12, ["fs/ext4", "fs/btrfs", "fs/nfs", "fs/xfs", "fs/fat", "fs/f2fs", "fs"],
     "fs"),
    ("gpu", 10, ["drivers/gpu/drm/i915", "drivers/gpu/drm/amd/amdgpu", "drivers/gpu/drm/nouveau",
                 "drivers/gpu/drm/panel", "include/drm"], "drm"),
    ("scsi", 5, ["drivers/scsi", "drivers/scsi/lpfc", "drivers/ata"], "scsi"),
    ("input", 5, ["drivers/input/mouse", "drivers/input/keyboard", "drivers/input/touchscreen",
                  "drivers/hid"], "Input"),
    ("sound", 6, ["sound/core", "sound/usb", "sound/pci/hda", "sound/soc/codecs"], "ALSA"),
    ("mm", 5, ["mm", "include/linux/mm"], "mm"),
    ("arch", 8, ["arch/x86/kernel", "arch/x86/mm", "arch/arm/mach-omap2", "arch/arm64/kernel",
                 "arch/arm64/boot/dts/freescale"], "arm64"),
    ("kernel", 7, ["kernel", "kernel/sched", "kernel/time", "include/linux", "lib"], "sched"),
    ("doc", 3, ["Documentation/usb", "Documentation/networking", "Documentation/filesystems"],
     "docs"),
]

WORDS = ["ring", "urb", "port", "hub", "queue", "buf", "desc", "ep", "xfer", "irq", "dma",
         "reg", "phy", "link", "mac", "skb", "rx", "tx", "inode", "extent", "page", "folio",
         "block", "dentry", "ctx", "req", "resp", "fw", "cmd", "state", "cfg", "pm", "clk",
         "reset", "power", "event", "timer", "work", "lock", "table", "entry", "map", "slot",
         "stream", "codec", "pcm", "mixer", "vma", "pte", "node", "zone", "task", "rq", "cpu"]
VERBS = ["init", "alloc", "free", "setup", "start", "stop", "handle", "get", "put", "read",
         "write", "update", "check", "probe", "remove", "suspend", "resume", "enable",
         "disable", "submit", "complete", "flush", "parse", "validate", "release", "register"]
STRUCTS = ["device", "usb_device", "usb_hcd", "net_device", "sk_buff", "inode", "super_block",
           "page", "drm_device", "scsi_cmnd", "input_dev", "snd_card", "task_struct",
           "platform_device", "pci_dev", "work_struct", "timer_list", "mutex", "spinlock"]
CONSTS = ["GFP_KERNEL", "GFP_ATOMIC", "HZ", "PAGE_SIZE", "ETH_ALEN", "USB_DIR_IN",
          "USB_MAXCHILDREN", "MAX_RETRIES", "BIT(3)", "0x1f", "0x80", "64", "512", "4"]
ERRS = ["-ENOMEM", "-EINVAL", "-ENODEV", "-EIO", "-EBUSY", "-ETIMEDOUT", "-EPROTO", "-ENOSPC"]
MSGS = ["failed to allocate buffer", "device not responding", "invalid descriptor",
        "timeout waiting for completion", "link is down", "resetting controller",
        "unexpected state %d", "ring full", "firmware version %u.%u", "dropping packet",
        "port %d over-current", "short read of %zu bytes", "retrying transfer",
        "bad checksum", "unsupported speed", "controller halted"]


class Ids:
    """Identifier soup for one file, so its functions look related."""

    def __init__(self, rng, stem):
        self.rng = rng
        self.prefix = re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_") or "drv"
        self.vars = ["dev", "priv", "hcd", "udev", "ndev", "ctx", "req", "port", "ring", "sb"]

    def fn(self):
        r = self.rng
        return "%s_%s_%s" % (self.prefix, r.choice(VERBS), r.choice(WORDS))

    def stmt(self, indent=1):
        r = self.rng
        t = "\t" * indent
        v = r.choice(self.vars)
        k = r.randrange(11)
        if k == 0:
            return [t + "ret = %s(%s, %s);" % (self.fn(), v, r.choice(CONSTS))]
        if k == 1:
            return [t + "if (!%s->%s)" % (v, r.choice(WORDS)), t + "\treturn %s;" % r.choice(ERRS)]
        if k == 2:
            return [t + "%s->%s_%s = %s;" % (v, r.choice(WORDS), r.choice(WORDS), r.choice(CONSTS))]
        if k == 3:
            return [t + "spin_lock_irqsave(&%s->lock, flags);" % v,
                    t + "%s->%s &= ~%s;" % (v, r.choice(WORDS), r.choice(CONSTS)),
                    t + "spin_unlock_irqrestore(&%s->lock, flags);" % v]
        if k == 4:
            return [t + 'dev_dbg(&%s->dev, "%s\\n");' % (v, r.choice(MSGS).replace("%", "%%"))]
        if k == 5:
            return [t + "for (i = 0; i < %s; i++)" % r.choice(CONSTS),
                    t + "\t%s->%s[i] = %s(%s, i);" % (v, r.choice(WORDS), self.fn(), v)]
        if k == 6:
            return [t + "/* %s */" % r.choice(MSGS).replace("%d", "n").replace("%u", "n")
                    .replace("%zu", "n")]
        if k == 7:
            return [t + "if (ret < 0) {",
                    t + '\tdev_err(&%s->dev, "%s: %%d\\n", ret);' % (v, r.choice(MSGS).split("%")[0].strip()),
                    t + "\tgoto err_%s;" % r.choice(WORDS), t + "}"]
        if k == 8:
            return [t + "%s = readl(%s->regs + 0x%02x);" % (r.choice(["val", "status", "tmp"]), v,
                                                          r.randrange(0, 256, 4))]
        if k == 9:
            return [t + "%s(%s->%s);" % (r.choice(["kfree", "usleep_range_fn", "cancel_work_sync",
                                                     "del_timer_sync", "put_device"]), v, r.choice(WORDS))]
        return [t + "%s += %s;" % (r.choice(["count", "len", "total", "off"]), r.choice(CONSTS))]

    def function(self):
        r = self.rng
        name = self.fn()
        lines = ["static int %s(struct %s *%s)" % (name, r.choice(STRUCTS), r.choice(self.vars)), "{",
                 "\tint ret = 0;", ""]
        for _ in range(r.randint(2, 7)):
            lines += self.stmt()
        lines += ["", "\treturn ret;", "}", ""]
        return lines


LICENSES = ["// SPDX-License-Identifier: GPL-2.0", "// SPDX-License-Identifier: GPL-2.0+",
            "// SPDX-License-Identifier: GPL-2.0-only", "// SPDX-License-Identifier: GPL-2.0-or-later"]
INCLUDES = ["<linux/module.h>", "<linux/kernel.h>", "<linux/slab.h>", "<linux/usb.h>",
            "<linux/device.h>", "<linux/netdevice.h>", "<linux/fs.h>", "<linux/mm.h>",
            "<linux/interrupt.h>", "<linux/spinlock.h>", "<linux/delay.h>", "<linux/of.h>"]


def new_file(rng, path, nfunc=None):
    stem = os.path.splitext(os.path.basename(path))[0]
    ids = Ids(rng, stem)
    if path.endswith(".rst") or path.endswith(".txt"):
        lines = ["=" * 20, stem.replace("-", " ").title(), "=" * 20, ""]
        for _ in range(rng.randint(8, 30)):
            lines.append(" ".join(rng.choice(WORDS + VERBS) for _ in range(rng.randint(5, 12))))
            if rng.random() < 0.2:
                lines.append("")
        return lines
    lines = [rng.choice(LICENSES), "/*", " * %s - %s" % (os.path.basename(path), rng.choice(MSGS)
                                                          .split("%")[0].strip()),
             " *", " * Copyright (C) %d %s" % (rng.randint(2001, 2011), rng.choice(LAST)), " */", ""]
    for inc in rng.sample(INCLUDES, rng.randint(2, 5)):
        lines.append("#include %s" % inc)
    lines.append("")
    if path.endswith(".h"):
        guard = re.sub(r"[^A-Z0-9]", "_", path.upper())
        lines += ["#ifndef %s" % guard, "#define %s" % guard, ""]
        for i in range(rng.randint(4, 20)):
            lines.append("#define %s_%s\t0x%08x" % (ids.prefix.upper(), rng.choice(WORDS).upper() + str(i),
                                                    1 << rng.randrange(24)))
        lines.append("")
        for _ in range(rng.randint(1, 4)):
            lines.append("int %s(struct %s *%s);" % (ids.fn(), rng.choice(STRUCTS), rng.choice(ids.vars)))
        lines += ["", "#endif /* %s */" % guard]
        return lines
    for _ in range(nfunc if nfunc is not None else rng.randint(2, 9)):
        lines += ids.function()
    lines += ['MODULE_DESCRIPTION("%s");' % stem, 'MODULE_LICENSE("GPL");']
    return lines


def file_names(rng, d, n):
    ext = ".rst" if d.startswith("Documentation") else ".c"
    base = os.path.basename(d).replace("-", "_")
    names = set()
    while len(names) < n:
        k = rng.randrange(4)
        if k == 0:
            nm = "%s_%s" % (base, rng.choice(WORDS))
        elif k == 1:
            nm = "%s-%s" % (rng.choice(WORDS), rng.choice(WORDS))
        elif k == 2:
            nm = rng.choice(WORDS) + rng.choice(["", "s", "_core", "_main", "_lib"])
        else:
            nm = "%s%d" % (rng.choice(WORDS), rng.randint(1, 999))
        e = ".h" if (ext == ".c" and (d.startswith("include") or rng.random() < 0.15)) else ext
        names.add(d + "/" + nm + e)
    return sorted(names)

# --------------------------------------------------------------------------
# Edits: small, realistic, multi-hunk.


def edit_file(rng, path, lines):
    """Returns a new list with 1-3 hunks' worth of changes (never equal to lines)."""
    for _ in range(20):
        new = edit_file_once(rng, path, lines)
        if new != lines:
            return new
    return lines + ["/* %d */" % rng.randrange(1 << 30)]


def edit_file_once(rng, path, lines):
    lines = list(lines)
    ids = Ids(rng, os.path.splitext(os.path.basename(path))[0])
    body = [i for i, l in enumerate(lines) if l.startswith("\t") or (path.endswith(".rst") and l)]
    if len(body) < 3 or path.endswith(".h") and rng.random() < 0.5:
        # headers: add or change a define near the end
        at = max(0, len(lines) - rng.randint(2, 6))
        lines.insert(at, "#define %s_%s\t%s" % (ids.prefix.upper(), rng.choice(WORDS).upper(),
                                               rng.choice(CONSTS)))
        return lines
    nh = rng.choice([1, 1, 2, 2, 2, 3])
    spots = sorted(rng.sample(body, min(nh, len(body))), reverse=True)
    for at in spots:
        k = rng.randrange(10)
        if path.endswith(".rst"):
            lines[at] = " ".join(rng.choice(WORDS + VERBS) for _ in range(rng.randint(5, 12)))
        elif k < 4:
            lines[at:at + 1] = ids.stmt(lines[at].count("\t", 0, 3) or 1)
        elif k < 7:
            lines[at + 1:at + 1] = ids.stmt()
        elif k < 9:
            if lines[at].strip() not in ("{", "}", "return ret;") and len(lines) > 20:
                del lines[at]
        else:
            # a new helper function before the one containing 'at'
            j = at
            while j > 0 and not lines[j].startswith("static "):
                j -= 1
            lines[j:j] = ids.function()
    return lines


SUBJ_FIX = ["fix NULL pointer dereference in {fn}", "fix memory leak in {fn}",
            "fix use-after-free in {fn}", "don't leak {w} on error path",
            "check return value of {fn}", "fix race between {fn} and {fn2}",
            "avoid out-of-bounds access in {fn}", "handle {w} timeout correctly"]
SUBJ_FEAT = ["add support for {w} {w2}", "convert {fn} to use devm helpers",
             "use dev_err_probe() in {fn}", "remove unused {w}_{w2} field",
             "simplify {fn}", "rename {fn} to {fn2}", "drop redundant {w} check",
             "switch to the new {w} API", "make {fn} static", "clean up {w} handling",
             "add {w} quirk for {vendor} devices", "document {w} locking rules"]
VENDORS = ["Realtek", "Genesys Logic", "VIA Labs", "ASMedia", "Fresco Logic", "Renesas",
           "Cypress", "FTDI", "Prolific", "Silicon Labs", "JMicron", "Broadcom"]
PROSE = ["The current code does not handle the case where the device disappears while the "
         "transfer is still in flight.", "This was found by code inspection.",
         "Found by syzkaller.", "No functional change intended.",
         "Without this the driver oopses on unplug.", "This matches what the other drivers do.",
         "The hardware reports the wrong value after a resume from system sleep.",
         "Use the helper instead of open-coding the same logic.",
         "Tested on a Dell XPS 13 and a Raspberry Pi 4.", "Reported by the kernel test robot.",
         "The error path forgot to release the reference taken above.",
         "Keep the old name as an alias for userspace compatibility."]


def subject_for(rng, prefix, path, fix):
    ids = Ids(rng, os.path.splitext(os.path.basename(path))[0])
    comp = os.path.splitext(os.path.basename(path))[0].replace("_", "-")
    tmpl = rng.choice(SUBJ_FIX if fix else SUBJ_FEAT)
    s = tmpl.format(fn=ids.fn() + "()", fn2=ids.fn() + "()", w=rng.choice(WORDS), w2=rng.choice(WORDS),
                    vendor=rng.choice(VENDORS))
    return "%s: %s: %s" % (prefix, comp, s)


def message_for(rng, subject, author, people):
    paras = []
    for _ in range(rng.randint(1, 3)):
        sents = rng.sample(PROSE, rng.randint(1, 3))
        paras.append(wrap(" ".join(sents)))
    if rng.random() < 0.01:
        paras.append("From the datasheet, the register is only valid after reset.")
    trailers = []
    if rng.random() < 0.25:
        trailers.append("Fixes: %012x (\"%s\")" % (rng.getrandbits(48), subject.split(": ")[-1]))
    if rng.random() < 0.15:
        trailers.append("Cc: stable@vger.kernel.org")
    if rng.random() < 0.2:
        p = rng.choice(people)
        trailers.append("Reported-by: %s <%s>" % (p[0], p[1]))
    trailers.append("Signed-off-by: %s <%s>" % (author[0], author[1]))
    if rng.random() < 0.3:
        p = rng.choice(people)
        trailers.append("Reviewed-by: %s <%s>" % (p[0], p[1]))
    return subject + "\n\n" + "\n\n".join(paras) + "\n\n" + "\n".join(trailers) + "\n"


def wrap(text, width=72):
    out, line = [], ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = (line + " " + w) if line else w
    if line:
        out.append(line)
    return "\n".join(out)

# --------------------------------------------------------------------------
# fast-import


class FastImport:
    def __init__(self, repo):
        self.proc = subprocess.Popen(["git", "-C", repo, "fast-import", "--quiet",
                                      "--export-marks=" + os.path.join(repo, ".git", "gen-marks")],
                                     stdin=subprocess.PIPE, env=git_env())
        self.out = self.proc.stdin
        self.mark = 0

    def data(self, b):
        self.out.write(b"data %d\n" % len(b))
        self.out.write(b)
        self.out.write(b"\n")

    def commit(self, ref, author, ts, msg, changes, parent=None, committer=None):
        """changes: list of ('M', path, lines) / ('D', path) / ('R', old, new). Returns the mark."""
        self.mark += 1
        w = self.out.write
        w(b"commit %s\nmark :%d\n" % (ref.encode(), self.mark))
        w(("author %s <%s> %d %s\n" % (author[0], author[1], ts, author[2])).encode())
        c = committer or author
        w(("committer %s <%s> %d %s\n" % (c[0], c[1], ts + 600, c[2])).encode())
        self.data(msg.encode())
        if parent is not None:
            w(b"from :%d\n" % parent)
        for ch in changes:
            if ch[0] == "M":
                w(("M 100644 inline %s\n" % ch[1]).encode())
                self.data(("\n".join(ch[2]) + "\n").encode())
            elif ch[0] == "D":
                w(("D %s\n" % ch[1]).encode())
            else:
                w(("R %s %s\n" % (ch[1], ch[2])).encode())
        w(b"\n")
        return self.mark

    def reset(self, ref, mark):
        self.out.write(("reset %s\nfrom :%d\n\n" % (ref, mark)).encode())

    def close(self):
        self.out.close()
        if self.proc.wait() != 0:
            sys.exit("gen-repo: git fast-import failed")


def git_env():
    env = dict(os.environ)
    for k in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"]:
        env.pop(k, None)
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "LC_ALL": "C",
                "TZ": "UTC", "GIT_AUTHOR_NAME": "gen", "GIT_AUTHOR_EMAIL": "gen@example.org",
                "GIT_COMMITTER_NAME": "gen", "GIT_COMMITTER_EMAIL": "gen@example.org"})
    return env


def git(repo, *args, stdout=None):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, env=git_env(),
                          stdout=stdout).stdout

# --------------------------------------------------------------------------
# The history model


class World:
    def __init__(self, nfiles, seed):
        self.rng = random.Random(seed)
        self.people = make_people(self.rng, 160)
        self.files = {}  # path -> list of lines
        self.subsys_files = {}
        self.ts = 1325376000  # 2012-01-01
        total_w = sum(s[1] for s in SUBSYSTEMS)
        for key, w, dirs, _ in SUBSYSTEMS:
            share = max(len(dirs) * 3, nfiles * w // total_w)
            per = max(3, share // len(dirs))
            paths = []
            for d in dirs:
                for p in file_names(self.rng, d, per):
                    self.files[p] = new_file(self.rng, p)
                    paths.append(p)
            self.subsys_files[key] = paths
        for p in ["MAINTAINERS", "Makefile", "README"]:
            self.files[p] = ["%s line %d" % (p, i) for i in range(40)]

    def pick_subsys(self, rng):
        return rng.choices(SUBSYSTEMS, weights=[s[1] for s in SUBSYSTEMS])[0]

    def change(self, rng, files, sub, author, fix):
        """One commit's worth of edits on files (a dict, modified). Returns (changes, subject)."""
        key, _, dirs, prefix = sub
        pool = [p for p in self.subsys_files[key] if p in files]
        changes = []
        r = rng.random()
        main = rng.choice(pool)
        if r < 0.03:
            d = os.path.dirname(main)
            nm = file_names(rng, d, 1)[0]
            if nm not in files:
                big = rng.random() < 0.1
                files[nm] = new_file(rng, nm, rng.randint(40, 400) if big else rng.randint(1, 3))
                self.subsys_files[key].append(nm)
                changes.append(("M", nm, files[nm]))
                return changes, "%s: %s: add driver for %s %s" % (
                    prefix, os.path.basename(d), rng.choice(VENDORS), rng.choice(WORDS))
        if r < 0.045 and len(pool) > 20:
            del files[main]
            changes.append(("D", main))
            return changes, "%s: remove obsolete %s" % (prefix, os.path.basename(main))
        if r < 0.065 and len(pool) > 10:
            new = file_names(rng, os.path.dirname(main), 1)[0]
            if new not in files:
                lines = edit_file(rng, new, files.pop(main))
                files[new] = lines
                self.subsys_files[key].append(new)
                changes += [("R", main, new), ("M", new, lines)]
                return changes, "%s: rename %s to %s" % (prefix, os.path.basename(main),
                                                         os.path.basename(new))
        touched = [main]
        extra = rng.choice([0, 0, 0, 1, 1, 2, 3])
        same_dir = [p for p in pool if os.path.dirname(p) == os.path.dirname(main) and p != main]
        for _ in range(extra):
            src = same_dir if same_dir and rng.random() < 0.7 else pool
            p = rng.choice(src)
            if p not in touched:
                touched.append(p)
        if rng.random() < 0.05:
            touched.append(rng.choice(self.subsys_files["kernel"]))
        for p in touched:
            if p in files:
                files[p] = edit_file(rng, p, files[p])
                changes.append(("M", p, files[p]))
        return changes, subject_for(rng, prefix, main, fix)


def build_history(world, fi, ncommits, rng):
    """Writes the initial import and ncommits commits on master, grouped in series.
    Returns (initial mark, list of series: [(sub key, author, [commit info])])."""
    files = world.files
    root = world.people[0]
    init = fi.commit("refs/heads/master", root, world.ts, "Initial import\n",
                     [("M", p, l) for p, l in sorted(files.items())])
    series = []
    n = 0
    while n < ncommits:
        sub = world.pick_subsys(rng)
        author = rng.choice(world.people)
        length = min(ncommits - n, rng.choice([1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 12]))
        fix = rng.random() < 0.4
        commits = []
        world.ts += rng.randint(600, 9000)
        for _ in range(length):
            world.ts += rng.randint(30, 600)
            changes, subject = world.change(rng, files, sub, author, fix)
            msg = message_for(rng, subject, author, world.people)
            mark = fi.commit("refs/heads/master", author, world.ts, msg, changes,
                             committer=world.people[1])
            commits.append({"mark": mark, "ts": world.ts, "subject": subject})
            n += 1
        series.append({"sub": sub[0], "author": author, "commits": commits, "ts": world.ts})
    return init, series

# --------------------------------------------------------------------------
# Mails


FP_SEP = re.compile(rb"^From ([0-9a-f]{40}) Mon Sep 17 00:00:00 2001\n", re.M)


def format_patch(repo, rng_range):
    """git format-patch of a range; returns {commit id: message} (bytes, without the From line)."""
    out = subprocess.run(["git", "-C", repo, "format-patch", "-M", "-k", "--stdout",
                          "--signature=2.37.2", rng_range],
                         check=True, env=git_env(), stdout=subprocess.PIPE).stdout
    parts = FP_SEP.split(out)
    assert parts[0] == b""
    return {parts[i].decode(): parts[i + 1] for i in range(1, len(parts), 2)}


def rfc2822(ts):
    return time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(ts))


def asctime(ts):
    return time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(ts))


def split_headers(msg):
    i = msg.index(b"\n\n")
    head, body = msg[:i + 1], msg[i + 2:]
    hdrs = []
    for line in head.split(b"\n")[:-1]:
        if line[:1] in (b" ", b"\t") and hdrs:
            hdrs[-1][1] += b"\n" + line
        else:
            k, _, v = line.partition(b":")
            hdrs.append([k, v.lstrip(b" ")])
    return hdrs, body


def join_headers(hdrs, body):
    return b"".join(k + b": " + v + b"\n" for k, v in hdrs) + b"\n" + body


def set_header(hdrs, name, value):
    for h in hdrs:
        if h[0].lower() == name.lower():
            h[1] = value
            return
    hdrs.append([name, value])


def get_header(hdrs, name):
    for k, v in hdrs:
        if k.lower() == name.lower():
            return v
    return None


def encode_body(rng, hdrs, body, how):
    if how == "qp":
        body = quopri.encodestring(body)
        cte = b"quoted-printable"
    else:
        body = base64.encodebytes(body)
        cte = b"base64"
    set_header(hdrs, b"MIME-Version", b"1.0")
    set_header(hdrs, b"Content-Type", b"text/plain; charset=UTF-8")
    set_header(hdrs, b"Content-Transfer-Encoding", cte)
    return body


def enc_addr(name, email):
    if name.isascii():
        if re.search(r"[^A-Za-z0-9 !#$%&*+/=?^_`{|}~-]", name):
            return '"%s" <%s>' % (name.replace('"', ''), email)
        return "%s <%s>" % (name, email)
    b = base64.b64encode(name.encode()).decode()
    return "=?UTF-8?B?%s?= <%s>" % (b, email)


class Mbox:
    def __init__(self, rng):
        self.rng = rng
        self.items = []  # (ts, seq, bytes)

    def add(self, ts, fromline, msg, dup=0.0):
        """Adds a message; with probability dup also the copy a list delivers later (a duplicate)."""
        if not msg.endswith(b"\n"):
            msg += b"\n"
        self.items.append((ts, len(self.items), fromline + msg))
        if dup and self.rng.random() < dup:
            hdrs, body = split_headers(msg)
            hdrs.append([b"List-Id", b"<linux-kernel.vger.kernel.org>"])
            self.items.append((ts + self.rng.randint(1, 900), len(self.items), fromline + join_headers(hdrs, body)))

    def write(self, path):
        self.items.sort(key=lambda x: (x[0], x[1]))
        with open(path, "wb") as f:
            for _, _, m in self.items:
                f.write(m)
        self.sizes = [len(m) for _, _, m in self.items]
        return len(self.sizes), max(self.sizes, default=0)


def msgid(ts, tag, n, author):
    return "<%s.%s-%d-%s>" % (time.strftime("%Y%m%d%H%M%S", time.gmtime(ts)), tag, n,
                              author[1].replace("@", ".") + "@" + author[1].split("@")[1])


def patch_mail(raw, subject, mid, ts, to, cc, parent, refs, note=None, enc=None, rng=None):
    hdrs, body = split_headers(raw)
    set_header(hdrs, b"Subject", subject.encode())
    set_header(hdrs, b"Date", rfc2822(ts).encode())
    hdrs.insert(3, [b"Message-Id", mid.encode()])
    if parent:
        hdrs.insert(4, [b"In-Reply-To", parent.encode()])
        hdrs.insert(5, [b"References", " ".join(refs).encode()])
    hdrs.insert(3, [b"To", to.encode()])
    if cc:
        hdrs.insert(4, [b"Cc", cc.encode()])
    if note:
        body = body.replace(b"\n---\n", ("\n---\n" + note + "\n").encode(), 1)
    if enc:
        body = encode_body(rng, hdrs, body, enc)
    return join_headers(hdrs, body)


def text_mail(frm, to, cc, subject, ts, mid, parent, refs, body):
    h = "From: %s\nTo: %s\n" % (enc_addr(*frm[:2]), to)
    if cc:
        h += "Cc: %s\n" % cc
    h += "Subject: %s\nDate: %s\nMessage-Id: %s\n" % (subject, rfc2822(ts), mid)
    if parent:
        h += "In-Reply-To: %s\nReferences: %s\n" % (parent, " ".join(refs))
    h += "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
    return (h + "\n" + body).encode()


def mbox_from(frm, ts):
    return ("From %s %s\n" % (frm[1], asctime(ts))).encode()


REVIEW = ["Looks good to me.", "This breaks the build on arm64, please fix and resend.",
          "Can you explain why the lock is not needed here?", "Applied, thanks.",
          "Why is this needed? The caller already checks for NULL.",
          "Please split this into two patches.", "Tested on my hardware, works fine.",
          "Nit: the subject line should say what changed, not how."]


def quote_patch(raw, rng):
    """What a reviewer quotes: often the whole patch (up to 400 lines), else a part of it."""
    _, body = split_headers(raw)
    lines = body.decode("utf-8", "replace").split("\n")
    if rng.random() < 0.4:
        return "\n".join("> " + l for l in lines[:400])
    start = rng.randrange(max(1, len(lines) // 2))
    return "\n".join("> " + l for l in lines[start:start + rng.randint(10, 60)])


# Message sizes like git.git's own history as format-patch output: median
# about 2.9 KB, mean about 11.5 KB, 1 in 100 above 290 KB, the largest about
# 1.8 MB. Patch mails get a size drawn from a log-normal body with a Pareto
# tail and are padded to it with a new file of C-like lines (the diffs stay
# well-formed; they are not meant to apply to the repository).
SIZE_MEDIAN, SIZE_SIGMA = 3900, 1.45
SIZE_TAIL, SIZE_TAIL_MIN, SIZE_TAIL_ALPHA, SIZE_MAX = 0.019, 290000, 2.0, 1800000
PAD_POOL = []


def mail_size(rng):
    if rng.random() < SIZE_TAIL:
        return min(int(SIZE_TAIL_MIN * (1 - rng.random()) ** (-1 / SIZE_TAIL_ALPHA)), SIZE_MAX)
    return min(int(rng.lognormvariate(math.log(SIZE_MEDIAN), SIZE_SIGMA)), SIZE_TAIL_MIN)


def pad_patch(raw, rng, size, directory):
    """raw (a format-patch mail) with a new file added to its diff, to about size bytes."""
    if len(raw) >= size:
        return raw
    if not PAD_POOL:
        ids = Ids(random.Random(SEED + 9), "pad")
        while len(PAD_POOL) < 60000:
            PAD_POOL.extend(ids.function())
    need = size - len(raw)
    path = "%s/%s_%d.c" % (directory, rng.choice(WORDS), rng.randrange(100000))
    out, n, i = [], 0, rng.randrange(len(PAD_POOL))
    while n < need:
        line = "+" + PAD_POOL[i % len(PAD_POOL)]
        out.append(line)
        n += len(line) + 1
        i += 1
    diff = ("diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..%07x\n--- /dev/null\n+++ b/%s\n"
            "@@ -0,0 +1,%d @@\n" % (path, path, rng.getrandbits(28), path, len(out))) + "\n".join(out) + "\n"
    sig = raw.rfind(b"\n-- \n")
    if sig < 0:
        return raw + diff.encode()
    return raw[:sig + 1] + diff.encode() + raw[sig + 1:]


def diff_part(raw, nlines):
    """The first nlines of raw's diff, as text."""
    i = raw.find(b"\ndiff --git ")
    if i < 0:
        return ""
    return "\n".join(raw[i + 1:].decode("utf-8", "replace").split("\n")[:nlines]) + "\n"


def cover_body(rng, author, s, n, version, style, raws):
    """A cover letter's body: git format-patch's (with an interdiff and a
    range-diff from v2 on: diff text in a cover letter) or b4's ("---"
    before its shortlog and diffstat, base-commit:, change-id:)."""
    subjects = [c["subject"] for c in s["commits"][:n]]
    body = wrap("This series %s." % rng.choice(PROSE).rstrip(".").lower()) + "\n\n"
    if version > 1:
        body += "Changes in v%d:\n- addressed review comments\n- rebased on the latest tree\n\n" % version
    if style == "b4":
        body += "---\n%s (%d):\n" % (author[0], n) + "".join("      %s\n" % x for x in subjects)
        body += "\n %d files changed, %d insertions(+), %d deletions(-)\n" % (
            n, rng.randint(n, 40 * n), rng.randint(0, 20 * n))
        body += "---\nbase-commit: %040x\nchange-id: %s-%s-%012x\n\nBest regards,\n-- \n%s <%s>\n" % (
            rng.getrandbits(160), time.strftime("%Y%m%d", time.gmtime(s["ts"])),
            rng.choice(WORDS), rng.getrandbits(48), author[0], author[1])
        return body
    body += "%s (%d):\n" % (author[0], n) + "".join("  %s\n" % x for x in subjects)
    if version > 1:
        body += "\nInterdiff against v%d:\n%s" % (version - 1, diff_part(raws[-1], 14))
        body += "\nRange-diff against v%d:\n" % (version - 1)
        for i, x in enumerate(subjects, 1):
            same = rng.random() < 0.7
            body += "%d:  %07x %s %d:  %07x %s\n" % (i, rng.getrandbits(28), "=" if same else "!", i,
                                                   rng.getrandbits(28), x)
            if not same:
                body += "    @@ %s\n    -\told();\n    +\tnew();\n" % x.split(": ")[0]
    body += "\n-- \n2.37.2\n"
    return body


def emit_series(mb, rng, world, s, raws, version, ts0, cover, replies, enc_rate, style="git",
                threaded=True, dup=0.0):
    """Adds one posting of a series (version v) to mb; returns the patches' Message-Ids."""
    author = s["author"]
    n = len(raws)
    lst = LISTS[s["sub"]]
    maint = world.people[[x[0] for x in SUBSYSTEMS].index(s["sub"]) + 2]
    to = enc_addr(*maint[:2])
    cc = lst + ", linux-kernel@vger.kernel.org"
    tag = "v%d" % version if version > 1 else ""
    pfx = "PATCH" + (" " + tag if tag else "")
    ts = ts0
    mids = []
    cover_mid = None
    directory = os.path.dirname(s.get("dir", "drivers/misc/x"))
    if cover and n > 1 and threaded:
        cover_mid = msgid(ts, "c%s" % tag, 0, author)
        subjects = [c["subject"] for c in s["commits"]]
        body = cover_body(rng, author, s, n, version, style, raws)
        m = text_mail(author, to, cc, "[%s 0/%d] %s" % (pfx, n, subjects[0].split(": ", 1)[0] + ": " +
                                                        rng.choice(["fixes", "cleanups", "new features",
                                                                    "rework of the driver"])),
                      ts, cover_mid, None, [], body)
        mb.add(ts, mbox_from(author, ts), m, dup)
    for i, raw in enumerate(raws, 1):
        ts += rng.randint(1, 5)
        mid = msgid(ts, "p%s" % tag, i, author)
        subj = s["commits"][i - 1]["subject"]
        subject = ("[%s %d/%d] %s" % (pfx, i, n, subj)) if n > 1 else ("[%s] %s" % (pfx, subj))
        parent = (cover_mid or (mids[0] if mids else None)) if threaded else None
        refs = [parent] if parent else []
        note = "\nChanges in v%d:\n- fixed the error path\n" % version if version > 1 and rng.random() < 0.5 else None
        r = rng.random()
        enc = "qp" if r < enc_rate else ("b64" if r < enc_rate * 1.6 else None)
        raw = pad_patch(raw, rng, mail_size(rng), directory)
        if len(raw) > 65536:
            enc = None  # big patches go out as 8bit text, so the size stays the drawn one
        m = patch_mail(raw, subject, mid, ts, to, cc, parent, refs, note, enc, rng)
        mb.add(ts, b"From %040x Mon Sep 17 00:00:00 2001\n" % rng.getrandbits(160), m, dup)
        mids.append(mid)
        # review replies: quoting the patch, some carrying a suggested diff
        if rng.random() < replies:
            rts = ts + rng.randint(3600, 86400 * 3)
            who = rng.choice(world.people)
            rmid = msgid(rts, "r", i, who)
            body = "On %s, %s wrote:\n%s\n\n%s\n\n" % (rfc2822(ts), author[0], quote_patch(raw, rng),
                                                      rng.choice(REVIEW))
            if rng.random() < 0.15:
                body += "How about this instead?\n\n-- >8 --\n%s\n" % diff_part(raw, 30)
            if rng.random() < 0.5:
                body += "Reviewed-by: %s <%s>\n" % (who[0], who[1])
            m = text_mail(who, enc_addr(*author[:2]), cc, "Re: " + subject, rts, rmid, mid,
                          [x for x in refs + [mid] if x], body)
            mb.add(rts, mbox_from(who, rts), m, dup)
            if rng.random() < 0.3:
                r2 = rts + rng.randint(600, 86400)
                m = text_mail(author, enc_addr(*who[:2]), cc, "Re: " + subject, r2,
                              msgid(r2, "rr", i, author), rmid, [x for x in refs + [mid, rmid] if x],
                              "> %s\n\nThanks, will fix in the next version.\n" % rng.choice(REVIEW))
                mb.add(r2, mbox_from(author, r2), m, dup)
    if cover_mid and rng.random() < replies:
        rts = ts + rng.randint(3600, 86400 * 2)
        who = world.people[1]
        m = text_mail(who, enc_addr(*author[:2]), cc, "Re: [%s 0/%d] series" % (pfx, n), rts,
                      msgid(rts, "ack", 0, who), cover_mid, [cover_mid],
                      "On %s, %s wrote:\n> This series ...\n\nAll applied to my tree, thanks.\n" %
                      (rfc2822(ts), author[0]))
        mb.add(rts, mbox_from(who, rts), m, dup)
    return cover_mid, mids


def partial_reroll(mb, rng, world, s, raws, cover_mid, mids, ts):
    """v2 of one patch of a series, sent in reply to v1's patch (b4 keeps v1's others)."""
    author = s["author"]
    n = len(raws)
    k = rng.randint(1, n)
    mid = msgid(ts, "pv2", k, author)
    refs = [x for x in (cover_mid, mids[k - 1]) if x]
    subject = "[PATCH v2 %d/%d] %s" % (k, n, s["commits"][k - 1]["subject"])
    m = patch_mail(raws[k - 1], subject, mid, ts, enc_addr(*world.people[2][:2]), LISTS[s["sub"]],
                   mids[k - 1], refs, "\nChanges in v2:\n- only this patch changed\n")
    mb.add(ts, b"From %040x Mon Sep 17 00:00:00 2001\n" % rng.getrandbits(160), m)


def discussion(mb, rng, world, ts, k):
    who = rng.choice(world.people)
    sub = world.pick_subsys(rng)
    subj = rng.choice(["[RFC] %s: rethinking %s handling", "Regression in %s: %s stops working",
                       "%s: question about %s locking", "[ANNOUNCE] %s %s meeting notes"]) % (
        sub[3], rng.choice(WORDS))
    mid = msgid(ts, "d", k, who)
    body = wrap(" ".join(rng.sample(PROSE, 3))) + "\n\nThanks,\n%s\n" % who[0].split()[0]
    mb.add(ts, mbox_from(who, ts), text_mail(who, LISTS[sub[0]], "", subj, ts, mid, None, [], body))
    for j in range(rng.randint(0, 3)):
        ts += rng.randint(600, 86400)
        w2 = rng.choice(world.people)
        m = text_mail(w2, LISTS[sub[0]], "", "Re: " + subj, ts, msgid(ts, "d%d" % j, k, w2), mid, [mid],
                      "> %s\n\n%s\n" % (rng.choice(PROSE), rng.choice(REVIEW)))
        enc = rng.random()
        if enc < 0.05:
            hdrs, b = split_headers(m)
            m = join_headers(hdrs, encode_body(rng, hdrs, b, "qp"))
        mb.add(ts, mbox_from(w2, ts), m)


def history_mbox(out, repo, init_mark, series, marks, world, rng, prof):
    """The list's mailbox: series (threaded with git- or b4-style cover letters,
    or sent without threading), earlier versions and partial rerolls, replies,
    duplicates (the list's copy of a message), discussions. Returns the sizes
    of its messages."""
    bysha = format_patch(repo, "%s..master" % marks[init_mark])
    mb = Mbox(rng)
    for si, s in enumerate(series):
        s["commits"] = [c for c in s["commits"] if marks[c["mark"]] in bysha]
        if not s["commits"]:
            continue
        sraws = [bysha[marks[c["mark"]]] for c in s["commits"]]
        m = re.search(rb"^diff --git a/(\S+)", sraws[0], re.M)
        s["dir"] = m.group(1).decode() if m else "drivers/misc/x"
        ts = s["commits"][0]["ts"]
        versions = 1
        r = rng.random()
        if r < prof["v3"]:
            versions = 3
        elif r < prof["v2"]:
            versions = 2
        cover = rng.random() < 0.8
        style = "b4" if rng.random() < 0.35 else "git"
        threaded = versions > 1 or len(sraws) == 1 or rng.random() > prof["unthreaded"]
        for v in range(1, versions + 1):
            vts = ts - (versions - v) * rng.randint(86400 * 2, 86400 * 10)
            if v < versions:
                # an earlier version: same patches, a different note, maybe one patch fewer
                use = sraws if len(sraws) < 3 or rng.random() < 0.7 else sraws[:-1]
                sv = dict(s)
                sv["commits"] = s["commits"][:len(use)]
                emit_series(mb, rng, world, sv, use, v, vts, cover, prof["replies"], prof["enc"], style,
                            True, prof["dup"])
            else:
                cmid, mids = emit_series(mb, rng, world, s, sraws, v, vts, cover, prof["replies"],
                                         prof["enc"], style, threaded, prof["dup"])
                if versions == 1 and threaded and len(sraws) > 2 and rng.random() < prof["reroll"]:
                    partial_reroll(mb, rng, world, s, sraws, cmid, mids, vts + rng.randint(86400, 86400 * 5))
        if rng.random() < prof["disc"]:
            discussion(mb, rng, world, ts + rng.randint(0, 86400), si)
    mb.write(os.path.join(out, "mbox"))
    return mb.sizes


def series_branch(fi, world, base_mark, nseries, rng):
    """nseries commits on refs/heads/series from base_mark, each touching 1-4 files."""
    files = dict(world.files)
    prev = base_mark
    for i in range(nseries):
        sub = world.pick_subsys(rng)
        author = rng.choice(world.people)
        world.ts += rng.randint(60, 3600)
        changes, subject = world.change(rng, files, sub, author, rng.random() < 0.5)
        msg = message_for(rng, subject, author, world.people)
        prev = fi.commit("refs/heads/series", author, world.ts, msg, changes,
                         parent=prev if i == 0 else None, committer=world.people[1])
    return prev

# --------------------------------------------------------------------------
# The demo (contrib/demo.sh): the article's tree and a TODO mailbox.

from demo_data import demo_build  # noqa: E402  (t/perf/demo_data.py)

# --------------------------------------------------------------------------

PROFILES = {
    "full": {"files": 4000, "commits": 8400, "series": 2500, "v2": 0.22, "v3": 0.05,
             "replies": 0.45, "enc": 0.05, "disc": 0.15, "unthreaded": 0.15, "reroll": 0.05, "dup": 0.03},
    "small": {"files": 300, "commits": 160, "series": 100, "v2": 0.25, "v3": 0.08,
              "replies": 0.5, "enc": 0.1, "disc": 0.2, "unthreaded": 0.2, "reroll": 0.1, "dup": 0.05},
    "demo": {"files": 120, "commits": 40, "series": 0, "v2": 0, "v3": 0,
             "replies": 0, "enc": 0, "disc": 0, "unthreaded": 0, "reroll": 0, "dup": 0},
}


def read_marks(repo):
    marks = {}
    with open(os.path.join(repo, ".git", "gen-marks")) as f:
        for line in f:
            m, sha = line.split()
            marks[int(m[1:])] = sha
    return marks


def main(argv):
    size, nser, base, out, force = "full", None, "master", None, False
    for a in argv:
        if a.startswith("--size="):
            size = a[7:]
        elif a.startswith("--series="):
            nser = int(a[9:])
        elif a.startswith("--base="):
            base = a[7:]
        elif a.startswith("--out="):
            out = a[6:]
        elif a == "--force":
            force = True
        else:
            sys.exit("usage: gen-repo.sh [--size=full|small|demo] [--series=<n>] [--base=<branch>] "
                     "[--out=<dir>] [--force]")
    if size not in PROFILES:
        sys.exit("gen-repo: unknown size '%s'" % size)
    if base not in ("master", "maint", "next"):
        sys.exit("gen-repo: --base must be master, maint or next")
    prof = dict(PROFILES[size])
    if nser is not None:
        prof["series"] = nser
    here = os.path.dirname(os.path.abspath(__file__))
    if out is None:
        name = size
        if nser is not None or base != "master":
            name += "-%d-%s" % (prof["series"], base)
        out = os.path.join(here, "out", name)
    out = os.path.abspath(out)
    params = "size=%s series=%d base=%s gen=%d\n" % (size, prof["series"], base, 6)
    stamp = os.path.join(out, "stamp")
    if not force and os.path.exists(stamp) and open(stamp).read() == params:
        print(out)
        return
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    t0 = time.time()
    repo = os.path.join(out, "repo")
    subprocess.run(["git", "init", "-q", "-b", "master", repo], check=True, env=git_env())
    if size == "demo":
        stats = demo_build(out, repo, sys.modules[__name__])
    else:
        world = World(prof["files"], SEED)
        fi = FastImport(repo)
        hist_rng = random.Random(SEED + 1)
        init, series = build_history(world, fi, prof["commits"], hist_rng)
        master_mark = fi.mark
        all_series = [c["mark"] for s in series for c in s["commits"]]
        maint_mark = all_series[len(all_series) * 4 // 5]
        fi.reset("refs/heads/maint", maint_mark)
        # next: a few commits beyond master
        nfiles = dict(world.files)
        next_rng = random.Random(SEED + 2)
        for i in range(20):
            sub = world.pick_subsys(next_rng)
            author = next_rng.choice(world.people)
            world.ts += 3600
            ch, subj = world.change(next_rng, nfiles, sub, author, False)
            fi.commit("refs/heads/next", author, world.ts, message_for(next_rng, subj, author, world.people),
                      ch, parent=master_mark if i == 0 else None)
        if base == "next":
            world.files = nfiles
            base_mark = fi.mark
        elif base == "maint":
            sys.exit("gen-repo: --base=maint is not supported yet")
        else:
            base_mark = master_mark
        if prof["series"]:
            series_branch(fi, world, base_mark, prof["series"], random.Random(SEED + 3))
        fi.close()
        marks = read_marks(repo)
        git(repo, "checkout", "-q", "-f", "master")
        sizes = sorted(history_mbox(out, repo, init, series, marks, world, random.Random(SEED + 4), prof))
        nmsg, largest = len(sizes), sizes[-1] if sizes else 0
        if prof["series"]:
            with open(os.path.join(out, "series.mbox"), "wb") as f:
                subprocess.run(["git", "-C", repo, "format-patch", "-M", "--stdout", "--thread",
                                "--signature=2.37.2", "%s..series" % marks[base_mark]],
                               check=True, env=git_env(), stdout=f)
        stats = {"commits": len(all_series), "files": len(world.files), "messages": nmsg,
                 "largest_message": largest, "series_patches": prof["series"], "base": base,
                 "median_message": sizes[len(sizes) // 2] if sizes else 0,
                 "mean_message": sum(sizes) // len(sizes) if sizes else 0,
                 "above_290k_per_1000": sum(1 for x in sizes if x > 290000) * 1000 // max(1, len(sizes))}
    stats["mbox_bytes"] = os.path.getsize(os.path.join(out, "mbox"))
    stats["seconds"] = int(time.time() - t0)
    with open(os.path.join(out, "stats"), "w") as f:
        for k in sorted(stats):
            f.write("%s=%s\n" % (k, stats[k]))
    with open(stamp, "w") as f:
        f.write(params)
    print(out)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1:])
