# SPDX-License-Identifier: GPL-2.0-only
# The demo corpus (gen-repo.sh --size=demo, used by contrib/demo.sh).
#
# A small driver tree laid out like the USB maintainer's workflow that
# git-maint(7) describes: branches master, usb-linus, usb-next
# and the maintainer's work-linus and work-next; and a TODO mailbox with
# the article's two USB patches (made against usb-next, so they apply to
# work-next but fail on work-linus at the second hunk of
# drivers/usb/core/sysfs.c), a USB serial series posted as v1 then v2,
# a net series whose last patch touches drivers/usb (so the whole thread
# goes with it), patches for other subsystems, review replies and a
# discussion without a patch.

import os
import random

# The files the article's patches touch, in their state on master. The
# lines the patches need as context are those of the seed patches; the
# rest is filler written for the demo.
ENDPOINT_C = r"""// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/usb/core/endpoint.c
 *
 * Endpoint "devices", so that sysfs can show each endpoint's attributes.
 */

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/usb.h>
#include "usb.h"

struct ep_device {
	struct usb_endpoint_descriptor *desc;
	struct usb_device *udev;
	struct device dev;
};
#define to_ep_device(_dev) \
	container_of(_dev, struct ep_device, dev)

struct device_type usb_ep_device_type = {
	.name =		"usb_endpoint",
};

struct ep_attribute {
	struct attribute attr;
	ssize_t (*show)(struct usb_device *,
			struct usb_endpoint_descriptor *, char *);
};
#define to_ep_attribute(_attr) \
	container_of(_attr, struct ep_attribute, attr)

#define usb_ep_attr(field, format_string)			\
static ssize_t field##_show(struct device *dev,			\
			    struct device_attribute *attr,	\
			    char *buf)				\
{								\
	struct ep_device *ep = to_ep_device(dev);		\
	return sprintf(buf, format_string, ep->desc->field);	\
}								\
static DEVICE_ATTR_RO(field)

usb_ep_attr(bLength, "%02x\n");
usb_ep_attr(bEndpointAddress, "%02x\n");
usb_ep_attr(bmAttributes, "%02x\n");
usb_ep_attr(bInterval, "%02x\n");

static ssize_t wMaxPacketSize_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct ep_device *ep = to_ep_device(dev);

	return sprintf(buf, "%04x\n", usb_endpoint_maxp(ep->desc));
}
static DEVICE_ATTR_RO(wMaxPacketSize);

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct ep_device *ep = to_ep_device(dev);
	char *type = "unknown";

	switch (usb_endpoint_type(ep->desc)) {
	case USB_ENDPOINT_XFER_CONTROL:
		type = "Control";
		break;
	case USB_ENDPOINT_XFER_ISOC:
		type = "Isoc";
		break;
	case USB_ENDPOINT_XFER_BULK:
		type = "Bulk";
		break;
	case USB_ENDPOINT_XFER_INT:
		type = "Interrupt";
		break;
	}
	return sprintf(buf, "%s\n", type);
}
static DEVICE_ATTR_RO(type);

static ssize_t direction_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct ep_device *ep = to_ep_device(dev);
	char *direction;

	if (usb_endpoint_xfer_control(ep->desc))
		direction = "both";
	else if (usb_endpoint_dir_in(ep->desc))
		direction = "in";
	else
		direction = "out";
	return sprintf(buf, "%s\n", direction);
}
static DEVICE_ATTR_RO(direction);

static struct attribute *ep_dev_attrs[] = {
	&dev_attr_bLength.attr,
	&dev_attr_bEndpointAddress.attr,
	&dev_attr_bmAttributes.attr,
	&dev_attr_bInterval.attr,
	&dev_attr_wMaxPacketSize.attr,
	&dev_attr_direction.attr,
	&dev_attr_type.attr,
	NULL,
};
static struct attribute_group ep_dev_attr_grp = {
	.attrs = ep_dev_attrs,
};
static const struct attribute_group *ep_dev_groups[] = {
	&ep_dev_attr_grp,
	NULL
};

static void ep_device_release(struct device *dev)
{
	struct ep_device *ep_dev = to_ep_device(dev);

	kfree(ep_dev);
}

int usb_create_ep_devs(struct device *parent,
			struct usb_host_endpoint *endpoint,
			struct usb_device *udev)
{
	struct ep_device *ep_dev;
	int retval;

	ep_dev = kzalloc(sizeof(*ep_dev), GFP_KERNEL);
	if (!ep_dev) {
		retval = -ENOMEM;
		goto exit;
	}

	ep_dev->desc = &endpoint->desc;
	ep_dev->udev = udev;
	ep_dev->dev.groups = ep_dev_groups;
	ep_dev->dev.type = &usb_ep_device_type;
	ep_dev->dev.parent = parent;
	ep_dev->dev.release = ep_device_release;
	dev_set_name(&ep_dev->dev, "ep_%02x", endpoint->desc.bEndpointAddress);

	retval = device_register(&ep_dev->dev);
	if (retval)
		goto error_register;

	device_enable_async_suspend(&ep_dev->dev);
	endpoint->ep_dev = ep_dev;
	return retval;

error_register:
	put_device(&ep_dev->dev);
exit:
	return retval;
}

void usb_remove_ep_devs(struct usb_host_endpoint *endpoint)
{
	struct ep_device *ep_dev = endpoint->ep_dev;

	if (ep_dev) {
		device_unregister(&ep_dev->dev);
		endpoint->ep_dev = NULL;
	}
}
"""

QUIRKS_C = r"""// SPDX-License-Identifier: GPL-2.0
/*
 * USB device quirk handling logic and table
 */

#include <linux/usb.h>
#include <linux/usb/quirks.h>
#include <linux/usb/hcd.h>
#include "usb.h"

static const struct usb_device_id usb_quirk_list[] = {
	/* CBM - Flash disk */
	{ USB_DEVICE(0x0204, 0x6025), .driver_info = USB_QUIRK_RESET_RESUME },

	/* HP 5300/5370C scanner */
	{ USB_DEVICE(0x03f0, 0x0701), .driver_info =
			USB_QUIRK_STRING_FETCH_255 },

	/* Creative SB Audigy 2 NX */
	{ USB_DEVICE(0x041e, 0x3020), .driver_info = USB_QUIRK_RESET_RESUME },

	/* Logitech Quickcam Fusion */
	{ USB_DEVICE(0x046d, 0x08c1), .driver_info = USB_QUIRK_RESET_RESUME },

	/* Philips PSC805 audio device */
	{ USB_DEVICE(0x0471, 0x0155), .driver_info = USB_QUIRK_RESET_RESUME },

	/* Action Semiconductor flash disk */
	{ USB_DEVICE(0x10d6, 0x2200), .driver_info =
			USB_QUIRK_STRING_FETCH_255 },

	{ }  /* terminating entry must be last */
};

static const struct usb_device_id *find_id(struct usb_device *udev)
{
	const struct usb_device_id *id = usb_quirk_list;

	for (; id->idVendor || id->bDeviceClass || id->bInterfaceClass ||
			id->driver_info; id++) {
		if (usb_match_device(udev, id))
			return id;
	}
	return NULL;
}

/*
 * Detect any quirks the device has, and do any housekeeping for it if needed.
 */
void usb_detect_quirks(struct usb_device *udev)
{
	const struct usb_device_id *id = usb_quirk_list;

	id = find_id(udev);
	if (id)
		udev->quirks = (u32)(id->driver_info);
	if (udev->quirks)
		dev_dbg(&udev->dev, "USB quirks for this device: %x\n",
				udev->quirks);

#ifdef	CONFIG_USB_SUSPEND
	/* By default, disable autosuspend for all devices.  The hub driver
	 * will enable it for hubs.
	 */
	usb_disable_autosuspend(udev);

	/* Autosuspend can also be disabled if the initial autosuspend_delay
	 * is negative.
	 */
	if (udev->autosuspend_delay < 0)
		usb_autoresume_device(udev);
#endif

#ifdef	CONFIG_PM
	/* For the present, all devices default to USB-PERSIST enabled.
	 * This is a sort of "safe default" for hardware that can cope with
	 * the changes that happen during a suspend/resume cycle
	 * for all devices.  It will affect things like hub resets
	 * and EMF-related port disables.
	 */
	if (!(udev->quirks & USB_QUIRK_RESET_MORPHS))
		udev->persist_enabled = 1;
#endif	/* CONFIG_PM */
}
"""

# On master (and so on usb-linus and work-linus) set_avoid_reset_quirk does
# not take the device lock; usb-next adds it. The article's second patch
# was made on usb-next, so its second sysfs.c hunk fails on work-linus.
SYSFS_C = r"""// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/usb/core/sysfs.c
 *
 * All of the sysfs file attributes for usb devices and interfaces.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/usb.h>
#include <linux/usb/quirks.h>
#include "usb.h"

/* Active configuration fields */
#define usb_actconfig_show(field, format_string)			\
static ssize_t field##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct usb_device *udev;					\
	struct usb_host_config *actconfig;				\
									\
	udev = to_usb_device(dev);					\
	actconfig = udev->actconfig;					\
	if (actconfig)							\
		return sprintf(buf, format_string,			\
				actconfig->desc.field);			\
	else								\
		return 0;						\
}									\

usb_actconfig_show(bNumInterfaces, "%2d\n");
usb_actconfig_show(bmAttributes, "%2x\n");

static ssize_t
show_speed(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;
	char *speed;

	udev = to_usb_device(dev);

	switch (udev->speed) {
	case USB_SPEED_LOW:
		speed = "1.5";
		break;
	case USB_SPEED_UNKNOWN:
	case USB_SPEED_FULL:
		speed = "12";
		break;
	case USB_SPEED_HIGH:
		speed = "480";
		break;
	case USB_SPEED_SUPER:
		speed = "5000";
		break;
	default:
		speed = "unknown";
	}
	return sprintf(buf, "%s\n", speed);
}
static DEVICE_ATTR(speed, S_IRUGO, show_speed, NULL);

static ssize_t
show_busnum(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;

	udev = to_usb_device(dev);
	return sprintf(buf, "%d\n", udev->bus->busnum);
}
static DEVICE_ATTR(busnum, S_IRUGO, show_busnum, NULL);

static ssize_t
show_devnum(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;

	udev = to_usb_device(dev);
	return sprintf(buf, "%d\n", udev->devnum);
}
static DEVICE_ATTR(devnum, S_IRUGO, show_devnum, NULL);

static ssize_t
show_maxchild(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;

	udev = to_usb_device(dev);
	return sprintf(buf, "%d\n", udev->maxchild);
}
static DEVICE_ATTR(maxchild, S_IRUGO, show_maxchild, NULL);

static ssize_t
show_quirks(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;

	udev = to_usb_device(dev);
	return sprintf(buf, "0x%x\n", udev->quirks);
}
static DEVICE_ATTR(quirks, S_IRUGO, show_quirks, NULL);

static ssize_t
show_avoid_reset_quirk(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;

	udev = to_usb_device(dev);
	return sprintf(buf, "%d\n", !!(udev->quirks & USB_QUIRK_RESET_MORPHS));
}

static ssize_t
set_avoid_reset_quirk(struct device *dev, struct device_attribute *attr,
		const char *buf, size_t count)
{
	struct usb_device	*udev = to_usb_device(dev);
	int			val;

	if (sscanf(buf, "%d", &val) != 1 || val < 0 || val > 1)
		return -EINVAL;
	if (val)
		udev->quirks |= USB_QUIRK_RESET_MORPHS;
	else
		udev->quirks &= ~USB_QUIRK_RESET_MORPHS;
	return count;
}

static DEVICE_ATTR(avoid_reset_quirk, S_IRUGO | S_IWUSR,
		show_avoid_reset_quirk, set_avoid_reset_quirk);

static ssize_t
show_urbnum(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct usb_device *udev;

	udev = to_usb_device(dev);
	return sprintf(buf, "%d\n", atomic_read(&udev->urbnum));
}
static DEVICE_ATTR(urbnum, S_IRUGO, show_urbnum, NULL);
"""

TRANSPORT_C = r"""// SPDX-License-Identifier: GPL-2.0+
/*
 * Driver for USB Mass Storage compliant devices
 *
 * Transport handling: Bulk-only, CB and CBI.
 */

#include <linux/sched.h>
#include <linux/gfp.h>
#include <linux/errno.h>
#include <linux/usb/quirks.h>

#include "usb.h"
#include "transport.h"
#include "debug.h"

/* This is the completion handler which will wake us up when an URB
 * completes.
 */
static void usb_stor_blocking_completion(struct urb *urb)
{
	struct completion *urb_done_ptr = urb->context;

	complete(urb_done_ptr);
}

/* Issue a USB port reset to the device.  The caller must not hold
 * us->dev_mutex.
 */
int usb_stor_port_reset(struct us_data *us)
{
	int result;

	/*for these devices we must use the class specific method */
	if (us->pusb_dev->quirks & USB_QUIRK_RESET_MORPHS)
		return -EPERM;

	result = usb_lock_device_for_reset(us->pusb_dev, us->pusb_intf);
	if (result < 0)
		US_DEBUGP("unable to lock device for reset: %d\n", result);
	else {
		/* Were we disconnected while waiting for the lock? */
		if (test_bit(US_FLIDX_DISCONNECTING, &us->dflags)) {
			result = -EIO;
			US_DEBUGP("No reset during disconnect\n");
		} else {
			result = usb_reset_device(us->pusb_dev);
			US_DEBUGP("usb_reset_device returns %d\n",
					result);
		}
		usb_unlock_device(us->pusb_dev);
	}
	return result;
}
"""

QUIRKS_H = r"""/*
 * This file holds the definitions of quirks found in USB devices.
 * Only quirks that affect the whole device, not an interface,
 * belong here.
 */

#ifndef __LINUX_USB_QUIRKS_H
#define __LINUX_USB_QUIRKS_H

/* string descriptors must not be fetched using a 255-byte read */
#define USB_QUIRK_STRING_FETCH_255	0x00000001

/* device can't resume correctly so reset it instead */
#define USB_QUIRK_RESET_RESUME		0x00000002

/* device can't handle Set-Interface requests */
#define USB_QUIRK_NO_SET_INTF		0x00000004

/* device can't handle its Configuration or Interface strings */
#define USB_QUIRK_CONFIG_INTF_STRINGS	0x00000008

/*device will morph if reset, don't use reset for handling errors */
#define USB_QUIRK_RESET_MORPHS		0x00000010

/* device has more interface descriptions than the bNumInterfaces count,
   and can't handle talking to these interfaces */
#define USB_QUIRK_HONOR_BNUMINTERFACES	0x00000020

/* device needs a pause during initialization, after we read the device
   descriptor */
#define USB_QUIRK_DELAY_INIT		0x00000040

#endif /* __LINUX_USB_QUIRKS_H */
"""

ARTICLE_FILES = {
    "drivers/usb/core/endpoint.c": ENDPOINT_C,
    "drivers/usb/core/quirks.c": QUIRKS_C,
    "drivers/usb/core/sysfs.c": SYSFS_C,
    "drivers/usb/storage/transport.c": TRANSPORT_C,
    "include/linux/usb/quirks.h": QUIRKS_H,
}

LAN = ("Lan Tianyu", "tianyu.lan@intel.com", "+0800")
GREG = ("Greg Kroah-Hartman", "gregkh@linuxfoundation.org", "-0700")
ALAN = ("Alan Stern", "stern@rowland.harvard.edu", "-0400")
JOHAN = ("Johan Hovold", "johan@kernel.org", "+0200")
UWE = ("Uwe Kleine-König", "u.kleine-koenig@pengutronix.de", "+0200")
HAYES = ("Hayes Wang", "hayeswang@realtek.com", "+0800")
TED = ("Theodore Ts'o", "tytso@mit.edu", "-0400")
VILLE = ("Ville Syrjälä", "ville.syrjala@linux.intel.com", "+0300")
DAVEM = ("David S. Miller", "davem@davemloft.net", "-0700")


def lines(text):
    return text.rstrip("\n").split("\n")


def replace(files, path, old, new, count=1):
    text = "\n".join(files[path]) + "\n"
    assert old in text, (path, old)
    files[path] = lines(text.replace(old, new, count))
    return ("M", path, files[path])


def sob(who, extra=()):
    return "\n".join(["Signed-off-by: %s <%s>" % (who[0], who[1])] + list(extra)) + "\n"


def pick(world, prefix, rng, exclude=()):
    c = sorted(p for p in world.files if p.startswith(prefix) and p.endswith(".c")
               and p not in exclude)
    return rng.choice(c)


def demo_build(out, repo, g):
    rng = random.Random(g.SEED + 100)
    world = g.World(g.PROFILES["demo"]["files"], g.SEED + 100)
    for p, t in ARTICLE_FILES.items():
        world.files[p] = lines(t)  # not in any subsystem pool: history never edits them
    fi = g.FastImport(repo)
    init, series = g.build_history(world, fi, g.PROFILES["demo"]["commits"], rng)
    master = fi.mark
    base_files = dict(world.files)
    ts = world.ts

    def commit(ref, who, msg, changes, parent=None):
        nonlocal ts
        ts += 3600
        return fi.commit(ref, who, ts, msg, changes, parent=parent, committer=GREG)

    # usb-linus: a fix for this release cycle
    f = dict(base_files)
    host = pick(world, "drivers/usb/host", rng)
    f[host] = g.edit_file(rng, host, f[host])
    usb_linus = commit("refs/heads/usb-linus", GREG,
                       "gpu/mfd/usb: Fix USB randconfig problems\n\n"
                       "Fix the build when CONFIG_USB is not set.\n\n" + sob(GREG),
                       [("M", host, f[host])], parent=master)
    # usb-next: the device lock in sysfs.c, then an hcd cleanup
    nf = dict(base_files)
    ch = replace(nf, "drivers/usb/core/sysfs.c",
                 "\t\treturn -EINVAL;\n\tif (val)\n\t\tudev->quirks |= USB_QUIRK_RESET_MORPHS;\n"
                 "\telse\n\t\tudev->quirks &= ~USB_QUIRK_RESET_MORPHS;\n\treturn count;",
                 "\t\treturn -EINVAL;\n\tusb_lock_device(udev);\n\tif (val)\n"
                 "\t\tudev->quirks |= USB_QUIRK_RESET_MORPHS;\n\telse\n"
                 "\t\tudev->quirks &= ~USB_QUIRK_RESET_MORPHS;\n\tusb_unlock_device(udev);\n\treturn count;")
    commit("refs/heads/usb-next", ALAN,
           "USB: core: lock the device while changing avoid_reset_quirk\n\n"
           "Changing udev->quirks races with the hub driver reading it during a\n"
           "reset. Take the device lock around the update.\n\n" + sob(ALAN, ["Signed-off-by: %s <%s>" % GREG[:2]]),
           [ch], parent=master)
    hcd = pick(world, "drivers/usb/host", rng, [host])
    nf[hcd] = g.edit_file(rng, hcd, nf[hcd])
    usb_next = commit("refs/heads/usb-next", GREG,
                      "usb: hcd: use *resource_size_t* for specifying resource data\n\n"
                      "The rsrc_start and rsrc_len fields hold resource addresses and sizes.\n\n" + sob(GREG),
                      [("M", hcd, nf[hcd])])
    fi.reset("refs/heads/work-linus", usb_linus)
    fi.reset("refs/heads/work-next", usb_next)

    # The TODO series, each on a scratch branch: (name, base mark, base files)
    branches = {}

    def series(name, parent, files, commits):
        f = dict(files)
        first = True
        for who, msg, edit in commits:
            changes = edit(f)
            commit("refs/heads/tmp/" + name, who, msg, changes, parent=parent if first else None)
            first = False
        branches[name] = parent

    def rand_edit(path):
        def e(f):
            f[path] = g.edit_file(rng, path, f[path])
            return [("M", path, f[path])]
        return e

    # 1. The article's two patches, made on usb-next.
    series("article", usb_next, nf, [
        (LAN, "usb/endpoint: Set release callback in the struct device_type instead of in the "
              "device itself directly\n\nFor following the way the rest of the usb core does, this "
              "patch is to change\nthe place of setting release callback.\n\n" + sob(LAN),
         lambda f: [replace(f, "drivers/usb/core/endpoint.c",
                            "struct device_type usb_ep_device_type = {\n\t.name =\t\t\"usb_endpoint\",\n};\n\n",
                            ""),
                    replace(f, "drivers/usb/core/endpoint.c",
                            "\tkfree(ep_dev);\n}\n\n",
                            "\tkfree(ep_dev);\n}\n\nstruct device_type usb_ep_device_type = {\n"
                            "\t.name =\t\t\"usb_endpoint\",\n\t.release = ep_device_release,\n};\n\n"),
                    replace(f, "drivers/usb/core/endpoint.c",
                            "\tep_dev->dev.release = ep_device_release;\n", "")][-1:]),
        (LAN, "usb: convert USB_QUIRK_RESET_MORPHS to USB_QUIRK_RESET\n\nSince the attribute "
              "avoid_reset_quirk is work for all devices including\nthose devices that can't morph, "
              "convert USB_QUIRK_RESET_MORPHS to\nUSB_QUIRK_RESET.\n\n" + sob(LAN),
         lambda f: [replace(f, "drivers/usb/core/quirks.c", "USB_QUIRK_RESET_MORPHS", "USB_QUIRK_RESET"),
                    replace(f, "drivers/usb/core/sysfs.c", "USB_QUIRK_RESET_MORPHS", "USB_QUIRK_RESET", 3),
                    replace(f, "drivers/usb/storage/transport.c", "USB_QUIRK_RESET_MORPHS",
                            "USB_QUIRK_RESET"),
                    replace(f, "include/linux/usb/quirks.h",
                            "/*device will morph if reset, don't use reset for handling errors */\n"
                            "#define USB_QUIRK_RESET_MORPHS\t\t0x00000010",
                            "/* device can't be reset(e.g morph devices), don't use reset */\n"
                            "#define USB_QUIRK_RESET\t\t\t0x00000010")]),
    ])
    # 2. A USB serial series, v1 (two patches) then v2 (three).
    ser = sorted(p for p in world.files if p.startswith("drivers/usb/serial/") and p.endswith(".c"))
    series("serial", master, base_files, [
        (JOHAN, "USB: serial: %s: fix use-after-free at disconnect\n\nThe port data was freed before "
                "the interrupt URB was killed.\n\n" % os.path.basename(ser[0])[:-2] + sob(JOHAN),
         rand_edit(ser[0])),
        (JOHAN, "USB: serial: %s: add device id for a new adapter\n\nAdd the id of a new "
                "USB-to-serial adapter.\n\n" % os.path.basename(ser[1 % len(ser)])[:-2] + sob(JOHAN),
         rand_edit(ser[1 % len(ser)])),
        (JOHAN, "USB: serial: %s: drop redundant error message\n\nThe core already logs "
                "allocation failures.\n\n" % os.path.basename(ser[0])[:-2] + sob(JOHAN),
         rand_edit(ser[0])),
    ])
    # 3. A net series whose last patch touches drivers/usb: the whole thread goes with it.
    netusb = sorted(p for p in world.files if p.startswith("drivers/net/usb/") and p.endswith(".c"))
    core = pick(world, "drivers/usb/core", rng, ARTICLE_FILES)
    series("r8152", master, base_files, [
        (HAYES, "r8152: fix the firmware loading error path\n\nRelease the firmware when the "
                "checksum does not match.\n\n" + sob(HAYES), rand_edit(netusb[0])),
        (HAYES, "r8152: support the new RTL8157 adapter\n\nAdd the chip version and its "
                "PHY setup.\n\n" + sob(HAYES), rand_edit(netusb[0])),
        (HAYES, "usb: core: add a no-LPM quirk for RTL8157\n\nThe adapter drops off the bus "
                "when USB3 LPM is enabled.\n\n" + sob(HAYES), rand_edit(core)),
    ])
    # 4. Other subsystems: ext4, net ethernet, drm.
    ext4 = pick(world, "fs/ext4", rng)
    series("ext4", master, base_files, [
        (TED, "ext4: fix the extent status cache shrinker\n\nFound by xfstests generic/476.\n\n"
              + sob(TED), rand_edit(ext4))])
    eth = pick(world, "drivers/net/ethernet", rng)
    series("eth", master, base_files, [
        (DAVEM, "net: %s: fix a leak in the rx path\n\nFree the skb when the DMA mapping "
                "fails.\n\n" % os.path.basename(eth)[:-2] + sob(DAVEM), rand_edit(eth)),
        (DAVEM, "net: %s: use napi_consume_skb()\n\nIt batches the frees.\n\n"
         % os.path.basename(eth)[:-2] + sob(DAVEM), rand_edit(eth))])
    drm = pick(world, "drivers/gpu/drm/i915", rng)
    series("drm", master, base_files, [
        (VILLE, "drm/i915: fix the watermark computation for odd widths\n\nRound up, not down.\n\n"
                + sob(VILLE), rand_edit(drm))])
    # 5. A USB gadget patch from an author with a non-ASCII name, sent base64.
    gad = pick(world, "drivers/usb/gadget", rng)
    series("gadget", master, base_files, [
        (UWE, "usb: gadget: %s: convert to platform remove callback returning void\n\n"
              "The .remove() callback's return value is ignored by the driver core.\n\n"
              % os.path.basename(gad)[:-2] + sob(UWE), rand_edit(gad))])
    # 6. A USB rename.
    misc = pick(world, "drivers/usb/misc", rng)
    newname = os.path.join(os.path.dirname(misc), "usb-ledctl.c")

    def rename(f):
        f[newname] = g.edit_file(rng, newname, f.pop(misc))
        return [("R", misc, newname), ("M", newname, f[newname])]
    series("rename", master, base_files, [
        (GREG, "USB: misc: rename %s to usb-ledctl.c\n\nThe old name said nothing about what the "
               "driver does.\n\n" % os.path.basename(misc) + sob(GREG), rename)])
    fi.close()
    marks = g.read_marks(repo)
    g.git(repo, "checkout", "-q", "-f", "work-next")

    def raws(name):
        bysha = g.format_patch(repo, "%s..tmp/%s" % (marks[branches[name]], name))
        return list(bysha.values())

    mb = g.Mbox(rng)
    t = ts + 86400

    def post(who, name, titles, version=1, cover=None, only=None, enc=None, replies=(), to=GREG,
             cc="linux-usb@vger.kernel.org"):
        nonlocal t
        rs = raws(name)[:only]
        n = len(rs)
        pfx = "PATCH" + (" v%d" % version if version > 1 else "")
        cover_mid = None
        if cover:
            t += 60
            cover_mid = g.msgid(t, "cover%d" % version, 0, who)
            body = cover + "\n\n%s (%d):\n" % (who[0], n) + "".join("  %s\n" % x for x in titles[:n])
            mb.add(t, g.mbox_from(who, t), g.text_mail(who, g.enc_addr(*to[:2]), cc,
                                                     "[%s 0/%d] %s" % (pfx, n, cover.split("\n")[0]),
                                                     t, cover_mid, None, [], body))
        mids = []
        for i, raw in enumerate(rs, 1):
            t += 30
            mid = g.msgid(t, "v%d" % version, i, who)
            subject = ("[%s %d/%d] %s" % (pfx, i, n, titles[i - 1])) if n > 1 else "[%s] %s" % (pfx, titles[0])
            parent = cover_mid or (mids[0][0] if mids else None)
            m = g.patch_mail(raw, subject, mid, t, g.enc_addr(*to[:2]), cc, parent,
                             [parent] if parent else [], None, enc, rng)
            mb.add(t, b"From %040x Mon Sep 17 00:00:00 2001\n" % rng.getrandbits(160), m)
            mids.append((mid, subject))
        for k, who2, text in replies:
            t += 3600
            mid, subject = mids[k - 1] if k else (cover_mid, "[%s 0/%d]" % (pfx, n))
            mb.add(t, g.mbox_from(who2, t), g.text_mail(who2, g.enc_addr(*who[:2]), cc, "Re: " + subject, t,
                                                       g.msgid(t, "re", k, who2), mid, [mid], text))

    def titles(name):
        out = []
        for raw in raws(name):
            hdrs, _ = g.split_headers(raw)
            out.append(g.get_header(hdrs, b"Subject").decode().replace("\n ", " "))
        return out

    post(JOHAN, "serial", titles("serial"), 1, only=2, cover="USB: serial: fixes for the adapter drivers",
         replies=[(1, GREG, "> The port data was freed before the interrupt URB was killed.\n\n"
                            "Please also kill the read URBs; send a v2.\n")])
    post(TED, "ext4", titles("ext4"), cc="linux-ext4@vger.kernel.org")
    post(HAYES, "r8152", titles("r8152"), cover="r8152: RTL8157 support",
         cc="netdev@vger.kernel.org, linux-usb@vger.kernel.org",
         replies=[(3, ALAN, "> The adapter drops off the bus when USB3 LPM is enabled.\n\n"
                            "Acked-by: Alan Stern <stern@rowland.harvard.edu>\n")])
    post(LAN, "article", titles("article"), cover="usb: endpoint release and quirk cleanups",
         replies=[(2, ALAN, "> convert USB_QUIRK_RESET_MORPHS to USB_QUIRK_RESET.\n\n"
                            "Acked-by: Alan Stern <stern@rowland.harvard.edu>\n")])
    post(DAVEM, "eth", titles("eth"), cc="netdev@vger.kernel.org")
    t += 600
    mb.add(t, g.mbox_from(ALAN, t), g.text_mail(
        ALAN, "linux-usb@vger.kernel.org", "", "xhci: resume regression on 6.1-rc3?", t,
        g.msgid(t, "disc", 0, ALAN), None, [],
        "Since -rc3 my laptop's xHCI controller fails to resume; the USB hub\n"
        "under drivers/usb/host never comes back. Anyone else seeing this?\n\nAlan\n"))
    post(UWE, "gadget", titles("gadget"), enc="b64")
    post(VILLE, "drm", titles("drm"), to=("Daniel Vetter", "daniel@ffwll.ch"), cc="dri-devel@lists.freedesktop.org")
    post(GREG, "rename", titles("rename"))
    post(JOHAN, "serial", titles("serial"), 2, cover="USB: serial: fixes for the adapter drivers\n\n"
         "Changes in v2:\n- also kill the read URBs\n- new patch 3")
    nmsg, largest = mb.write(os.path.join(out, "TODO"))
    for name in branches:
        g.git(repo, "update-ref", "-d", "refs/heads/tmp/" + name)
    os.replace(os.path.join(out, "TODO"), os.path.join(out, "mbox"))
    os.symlink("mbox", os.path.join(out, "TODO"))
    return {"messages": nmsg, "largest_message": largest, "commits": g.PROFILES["demo"]["commits"]}
