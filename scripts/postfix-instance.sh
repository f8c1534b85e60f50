#!/usr/bin/env bash
# A real Postfix (Debian's package) on 127.0.0.1 for tests/postfix.rs: its own instance,
# every file under DIR, a spare port, no outside delivery.
#
#   scripts/postfix-instance.sh start DIR CASTELLAN CONFIG   start it; writes DIR/ports.env
#   scripts/postfix-instance.sh stop DIR                     stop it
#
# Mail for the domain castellan.test:
#   judge@castellan.test (and judge+anything@castellan.test, recipient_delimiter = +) goes
#     through a pipe(8) transport to `CASTELLAN --config CONFIG ingest`, run as nobody
#     (CASTELLAN and CONFIG must be readable by nobody). An exit 75 (EX_TEMPFAIL) defers the
#     message; Postfix retries it within seconds (short backoff for the test).
#   alice, bob, carol, dave, gm @castellan.test are virtual(8) Maildirs:
#     DIR/mail/castellan.test/<user>/{new,cur,tmp}, owned by nobody.
#   anything else is refused: no outside delivery (default and relay transport: error).
# DIR/ports.env: SMTP_PORT=<port of smtpd on 127.0.0.1>. DIR/maillog: Postfix's log.
# Needs root (the master starts as root) and postfix (scripts/install-test-deps.sh).
# docs/operating.md gives the same set-up for a real server.
set -euo pipefail

USERS="alice bob carol dave gm"
die() { echo "postfix-instance: $*" >&2; exit 1; }
usage() { echo "usage: $0 start DIR CASTELLAN CONFIG | stop DIR" >&2; exit 2; }

[ $# -ge 2 ] || usage
CMD="$1"
mkdir -p "$2"
DIR="$(cd "$2" && pwd)"
ETC="$DIR/etc"

stop() {
  if [ -f "$ETC/main.cf" ]; then
    postfix -c "$ETC" stop >/dev/null 2>&1 || true
    # the master leaves at once; wait for its pid file to go (a few seconds at most)
    for _ in $(seq 50); do
      [ -e "$DIR/spool/pid/master.pid" ] && kill -0 "$(tr -d ' ' <"$DIR/spool/pid/master.pid")" 2>/dev/null || break
      sleep 0.1
    done
  fi
}

case "$CMD" in
  stop) stop; exit 0 ;;
  start) [ $# -eq 4 ] || usage ;;
  *) usage ;;
esac
CASTELLAN="$3"
CONFIG="$4"

[ "$(id -u)" -eq 0 ] || die "needs root (the Postfix master starts as root)"
command -v postfix >/dev/null || die "postfix is not installed: run scripts/install-test-deps.sh"
[ -x "$CASTELLAN" ] || die "$CASTELLAN is not executable"

PORT="$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
NOBODY_UID="$(id -u nobody)"
NOBODY_GID="$(id -g nobody)"

chmod 755 "$DIR"
mkdir -p "$ETC" "$DIR/spool" "$DIR/mail/castellan.test" "$DIR/data"
chown postfix "$DIR/data"
: >"$DIR/maillog"

cat >"$ETC/main.cf" <<CF
compatibility_level = 3.6
queue_directory = $DIR/spool
data_directory = $DIR/data
maillog_file = $DIR/maillog
maillog_file_prefixes = $DIR
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.castellan.test
mydomain = castellan.test
myorigin = castellan.test
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
biff = no
append_dot_mydomain = no
smtpd_banner = \$myhostname ESMTP castellan-test
# No outside delivery: only castellan.test exists, everything else is an error.
relay_domains =
default_transport = error:no outside delivery in the castellan test
relay_transport = error:no outside delivery in the castellan test
# The players' Maildirs.
virtual_mailbox_domains = castellan.test
virtual_mailbox_base = $DIR/mail
virtual_mailbox_maps = texthash:$ETC/vmailbox
virtual_uid_maps = static:$NOBODY_UID
virtual_gid_maps = static:$NOBODY_GID
# The judge: its address, plus-addresses included, goes to castellan ingest.
recipient_delimiter = +
transport_maps = texthash:$ETC/transport
castellan_destination_recipient_limit = 1
# A deferred message (ingest exit 75) is retried within seconds, not minutes.
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
CF

for u in $USERS; do mkdir -p "$DIR/mail/castellan.test/$u/"{new,cur,tmp}; done
chown -R "$NOBODY_UID:$NOBODY_GID" "$DIR/mail"

{
  echo "judge@castellan.test castellan.test/judge/"
  for u in $USERS; do echo "$u@castellan.test castellan.test/$u/"; done
} >"$ETC/vmailbox"
echo "judge@castellan.test castellan:" >"$ETC/transport"

cat >"$ETC/master.cf" <<CF
# service type  private unpriv  chroot  wakeup  maxproc command + args
127.0.0.1:$PORT inet n  -       n       -       -       smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
smtp      unix  -       -       n       -       -       smtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
# Castellan: the judge's mail, one message per run, as nobody. Exit 75 defers.
castellan unix  -       n       n       -       -       pipe
  flags=R user=nobody argv=$CASTELLAN --config $CONFIG ingest
CF

log="$DIR/postfix-start.log"
# The postfix command logs its errors to syslog, or to stderr when that is a terminal:
# script(1) gives it one, so a failure says why.
if ! script -qec "postfix -c '$ETC' check && postfix -c '$ETC' start" /dev/null >"$log" 2>&1; then
  cat "$log" >&2
  die "postfix did not start (log: $log)"
fi
# Up when smtpd answers on the port.
for _ in $(seq 100); do
  if /usr/bin/python3 -c 'import smtplib,sys; smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=2).quit()' "$PORT" 2>/dev/null; then
    echo "SMTP_PORT=$PORT" >"$DIR/ports.env"
    echo "SMTP_PORT=$PORT"
    exit 0
  fi
  sleep 0.1
done
cat "$log" "$DIR/maillog" >&2
stop
die "postfix's smtpd did not answer on 127.0.0.1:$PORT"
