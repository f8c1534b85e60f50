#!/usr/bin/python3
"""A small real SMTP server for Castellan's tests (aiosmtpd, Debian's python3-aiosmtpd).

Usage: smtp_sink.py HOST PORT MAILROOT [--cert PEM --key PEM]
                    [--starttls-port PORT] [--smtps-port PORT]

PORT is plain SMTP. With a certificate and its key, --starttls-port also listens for SMTP
that must say STARTTLS before MAIL (port 587 style) and --smtps-port for SMTP over TLS
from the first byte (port 465 style); all of them deliver the same way.

Every message accepted is delivered into the Maildir of each recipient's local part
(plus-address tag dropped, lowercased): MAILROOT/<user>/Maildir/new/, written in tmp/
first and then renamed, so a reader never sees half a message. A Return-Path header with
the envelope sender and a Delivered-To header with the full recipient address are
prepended, as a real MTA does. Unknown users get a mailbox created on first delivery.
"""
import argparse
import itertools
import os
import signal
import socket
import ssl
import sys
import time

from aiosmtpd.controller import Controller

# one counter for every listener (each Controller runs in a thread of its own);
# next() on itertools.count is atomic in CPython
_counter = itertools.count(1)


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
    owner = os.stat(mailroot)
    base = os.path.join(mailroot, user, "Maildir")
    for sub in ("tmp", "new", "cur"):
        ensure_dir(os.path.join(base, sub), owner)
    name = "%d.P%dQ%d.%s" % (time.time(), os.getpid(), next(_counter), socket.gethostname())
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
            # X-Sink-Peer: the client's address and port, so tests can tell whether
            # several mails came over one connection.
            peer = "%s:%s" % tuple(session.peer[:2]) if session.peer else "unknown"
            head = ("Return-Path: <%s>\r\nDelivered-To: %s\r\nX-Sink-Peer: %s\r\n"
                    % (sender, rcpt, peer)).encode()
            deliver(self.mailroot, user, head + content)
        return "250 Message accepted for delivery"


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("mailroot")
    ap.add_argument("--cert", help="server certificate (PEM) for the TLS ports")
    ap.add_argument("--key", help="its private key (PEM)")
    ap.add_argument("--starttls-port", type=int, help="SMTP with STARTTLS required")
    ap.add_argument("--smtps-port", type=int, help="SMTP over TLS from the first byte")
    args = ap.parse_args()
    tls_ports = args.starttls_port or args.smtps_port
    if tls_ports and not (args.cert and args.key):
        ap.error("--starttls-port and --smtps-port need --cert and --key")

    handler = MaildirHandler(args.mailroot)
    common = dict(
        hostname=args.host,
        # keep the raw bytes: 8-bit bodies must arrive unchanged
        decode_data=False,
        data_size_limit=50 * 1024 * 1024,
    )
    listening = ["%s:%d" % (args.host, args.port)]
    controllers = [Controller(handler, port=args.port, **common)]
    if tls_ports:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        if args.starttls_port:
            controllers.append(
                Controller(
                    handler,
                    port=args.starttls_port,
                    tls_context=context,
                    require_starttls=True,
                    **common,
                )
            )
            listening.append("%s:%d (STARTTLS)" % (args.host, args.starttls_port))
        if args.smtps_port:
            controllers.append(
                Controller(handler, port=args.smtps_port, ssl_context=context, **common)
            )
            listening.append("%s:%d (TLS)" % (args.host, args.smtps_port))

    def stop_all():
        for c in controllers:
            try:
                c.stop()
            except Exception:  # never started
                pass

    def stop(*_):
        stop_all()
        sys.exit(0)

    try:
        for c in controllers:
            c.start()
    except BaseException:
        stop_all()
        raise
    # printed only once every port is bound: mail-servers.sh waits for this line
    print(
        "smtp_sink listening on %s, delivering into %s" % (", ".join(listening), args.mailroot),
        flush=True,
    )
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
