#!/usr/bin/python3
"""A small real SMTP server for Castellan's tests (aiosmtpd, Debian's python3-aiosmtpd).

Usage: smtp_sink.py HOST PORT MAILROOT

Every message accepted is delivered into the Maildir of each recipient's local part
(plus-address tag dropped, lowercased): MAILROOT/<user>/Maildir/new/, written in tmp/
first and then renamed, so a reader never sees half a message. A Return-Path header with
the envelope sender and a Delivered-To header with the full recipient address are
prepended, as a real MTA does. Unknown users get a mailbox created on first delivery.
"""
import asyncio
import os
import signal
import socket
import sys
import time

from aiosmtpd.controller import Controller

_counter = 0


def ensure_dir(path, owner):
    """mkdir -p, giving every folder made here the mail root's owner (dovecot runs as
    nobody in the test set-up and must be able to read and move what we deliver)."""
    if os.path.isdir(path):
        return
    ensure_dir(os.path.dirname(path), owner)
    os.makedirs(path, exist_ok=True)
    try:
        os.chown(path, owner.st_uid, owner.st_gid)
    except OSError:
        pass


def deliver(mailroot, user, data):
    global _counter
    owner = os.stat(mailroot)
    base = os.path.join(mailroot, user, "Maildir")
    for sub in ("tmp", "new", "cur"):
        ensure_dir(os.path.join(base, sub), owner)
    _counter += 1
    name = "%d.P%dQ%d.%s" % (time.time(), os.getpid(), _counter, socket.gethostname())
    tmp = os.path.join(base, "tmp", name)
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    try:
        os.chown(tmp, owner.st_uid, owner.st_gid)
    except OSError:
        pass
    os.rename(tmp, os.path.join(base, "new", name))


class MaildirHandler:
    def __init__(self, mailroot):
        self.mailroot = mailroot

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0]
        if not local or "/" in local or local.startswith("."):
            return "550 5.1.1 bad mailbox name"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        sender = envelope.mail_from or ""
        for rcpt in envelope.rcpt_tos:
            user = rcpt.split("@", 1)[0].split("+", 1)[0].lower()
            head = ("Return-Path: <%s>\r\nDelivered-To: %s\r\n" % (sender, rcpt)).encode()
            deliver(self.mailroot, user, head + content)
        return "250 Message accepted for delivery"


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    host, port, mailroot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    controller = Controller(
        MaildirHandler(mailroot),
        hostname=host,
        port=port,
        # keep the raw bytes: 8-bit bodies must arrive unchanged
        decode_data=False,
        data_size_limit=50 * 1024 * 1024,
    )
    controller.start()
    print("smtp_sink listening on %s:%d, delivering into %s" % (host, port, mailroot), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: (controller.stop(), sys.exit(0)))
    signal.signal(signal.SIGINT, lambda *_: (controller.stop(), sys.exit(0)))
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
