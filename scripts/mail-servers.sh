#!/usr/bin/env bash
# Real mail servers on 127.0.0.1 for Castellan's tests (no mocks).
#
#   scripts/mail-servers.sh start DIR   start SMTP (aiosmtpd, scripts/smtp_sink.py) and IMAP
#                                       (dovecot) with every file under DIR; prints and writes
#                                       DIR/ports.env (see below)
#   scripts/mail-servers.sh stop DIR    stop both
#
# DIR/ports.env, one KEY=VALUE a line:
#   SMTP_PORT            plain SMTP
#   SMTP_STARTTLS_PORT   SMTP that requires STARTTLS before MAIL
#   SMTPS_PORT           SMTP over TLS from the first byte
#   IMAP_PORT            plain IMAP
#   IMAPS_PORT           IMAP over TLS from the first byte
#   CA_FILE              the PEM certificate of the throwaway CA that signed the servers'
#                        certificate (DIR/tls/ca.pem; for 127.0.0.1 and localhost)
# The TLS files are made afresh at each start with /usr/bin/openssl under DIR/tls/: a CA
# (ca.pem, ca.key) trusted by nothing else, and the servers' certificate (server.pem,
# server.key) it signed, with subjectAltName IP:127.0.0.1 and DNS:localhost.
#
# SMTP delivers each message into DIR/mail/<local part>/Maildir/new (via tmp/); dovecot
# serves those Maildirs over IMAP. Users judge, alice, bob, carol, dave, erin, frank, gm,
# password "secret"; mail is owned by nobody. Exits non-zero, saying why, if a server does
# not come up. Install the servers with scripts/install-test-deps.sh.
set -euo pipefail

USERS="judge alice bob carol dave erin frank gm"
PASSWORD="secret"
HERE="$(cd "$(dirname "$0")" && pwd)"

die() { echo "mail-servers: $*" >&2; exit 1; }

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }

[ $# -eq 2 ] || usage
CMD="$1"
mkdir -p "$2"
DIR="$(cd "$2" && pwd)"

PY=/usr/bin/python3   # Debian's python, where python3-aiosmtpd lives
OPENSSL=/usr/bin/openssl

# free_ports N: N distinct free ports on 127.0.0.1, one a line (all bound at once, then freed)
free_ports() {
  "$PY" -c '
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
for s in socks:
    print(s.getsockname()[1])
    s.close()
' "$1"
}

# make_tls T: a throwaway CA and a server certificate for 127.0.0.1 / localhost in T
make_tls() {
  local T="$1" log="$1/openssl.log"
  rm -rf "$T"
  mkdir -p "$T"
  chmod 755 "$T"
  local EC=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  {
    "$OPENSSL" req -x509 "${EC[@]}" -keyout "$T/ca.key" -out "$T/ca.pem" -days 30 \
      -subj "/O=Castellan tests/CN=Castellan throwaway test CA" \
      -addext "basicConstraints=critical,CA:TRUE" \
      -addext "keyUsage=critical,keyCertSign,cRLSign" &&
    "$OPENSSL" req -new "${EC[@]}" -keyout "$T/server.key" -out "$T/server.csr" \
      -subj "/O=Castellan tests/CN=localhost" &&
    printf '%s\n' \
      "basicConstraints=critical,CA:FALSE" \
      "keyUsage=critical,digitalSignature" \
      "extendedKeyUsage=serverAuth" \
      "subjectAltName=IP:127.0.0.1,DNS:localhost" >"$T/server.ext" &&
    "$OPENSSL" x509 -req -in "$T/server.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
      -set_serial "0x$("$OPENSSL" rand -hex 8)" -days 30 -extfile "$T/server.ext" \
      -out "$T/server.pem"
  } >"$log" 2>&1 || {
    echo "mail-servers: openssl could not make the test certificates; its output ($log):" >&2
    tail -n 30 "$log" >&2 || true
    exit 1
  }
  chmod 644 "$T/ca.pem" "$T/server.pem"
  chmod 600 "$T/ca.key" "$T/server.key"
}

# wait_port PORT PID NAME LOG: until something answers on 127.0.0.1:PORT (10 s at most)
wait_port() {
  local port="$1" pid="$2" name="$3" log="$4" i
  for i in $(seq 1 100); do
    if "$PY" -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.5).close()' "$port" 2>/dev/null; then
      return 0
    fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "mail-servers: $name exited at start; its log ($log):" >&2
      tail -n 30 "$log" >&2 || true
      exit 1
    fi
    sleep 0.1
  done
  echo "mail-servers: $name did not listen on 127.0.0.1:$port within 10 s; its log ($log):" >&2
  tail -n 30 "$log" >&2 || true
  exit 1
}

start() {
  [ -x "$PY" ] || die "$PY not found: run scripts/install-test-deps.sh"
  "$PY" -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd is not installed: run scripts/install-test-deps.sh"
  command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ] || die "dovecot is not installed: run scripts/install-test-deps.sh"
  [ -x "$OPENSSL" ] || die "$OPENSSL not found (Debian's openssl, which dovecot-core depends on): run scripts/install-test-deps.sh"
  local DOVECOT; DOVECOT="$(command -v dovecot || echo /usr/sbin/dovecot)"

  if [ -f "$DIR/ports.env" ]; then
    "$0" stop "$DIR" >/dev/null 2>&1 || true
  fi

  local MAILUSER MAILGROUP
  if [ "$(id -u)" -eq 0 ]; then
    MAILUSER=nobody
    MAILGROUP="$(id -gn nobody)"
  else
    MAILUSER="$(id -un)"
    MAILGROUP="$(id -gn)"
  fi

  # nobody must be able to reach DIR/mail
  chmod 755 "$DIR"
  mkdir -p "$DIR/mail" "$DIR/dovecot/state" "$DIR/log"
  for u in $USERS; do
    mkdir -p "$DIR/mail/$u/Maildir/new" "$DIR/mail/$u/Maildir/cur" "$DIR/mail/$u/Maildir/tmp"
  done
  if [ "$(id -u)" -eq 0 ]; then
    chown -R "$MAILUSER:$MAILGROUP" "$DIR/mail"
    # dovecot reads the mail as nobody: every folder above DIR/mail must let it through
    if command -v setpriv >/dev/null 2>&1 &&
       ! setpriv --reuid="$MAILUSER" --regid="$MAILGROUP" --clear-groups test -w "$DIR/mail/judge/Maildir/new"; then
      die "user $MAILUSER cannot reach $DIR/mail (a parent folder is closed to others): use a DIR under /tmp"
    fi
  fi

  local SMTP_PORT IMAP_PORT SMTP_STARTTLS_PORT SMTPS_PORT IMAPS_PORT
  { read -r SMTP_PORT; read -r IMAP_PORT; read -r SMTP_STARTTLS_PORT; read -r SMTPS_PORT
    read -r IMAPS_PORT; } < <(free_ports 5)
  [ -n "$IMAPS_PORT" ] || die "could not find free ports on 127.0.0.1"

  # --- TLS ------------------------------------------------------------------------
  local TLS="$DIR/tls"
  make_tls "$TLS"

  # a start that fails stops whatever it had started: nothing is left listening
  trap 'stop >/dev/null 2>&1 || true' EXIT

  # --- SMTP -----------------------------------------------------------------------
  nohup "$PY" "$HERE/smtp_sink.py" 127.0.0.1 "$SMTP_PORT" "$DIR/mail" \
    --cert "$TLS/server.pem" --key "$TLS/server.key" \
    --starttls-port "$SMTP_STARTTLS_PORT" --smtps-port "$SMTPS_PORT" \
    >"$DIR/log/smtp.log" 2>&1 </dev/null &
  local SMTP_PID=$!
  echo "$SMTP_PID" >"$DIR/smtp.pid"
  # wait for its own "listening" line (printed only once it has bound the port), so a
  # server of another instance on the same port is never taken for ours
  for _ in $(seq 1 100); do
    grep -q "^smtp_sink listening" "$DIR/log/smtp.log" 2>/dev/null && break
    kill -0 "$SMTP_PID" 2>/dev/null || break
    sleep 0.1
  done
  grep -q "^smtp_sink listening" "$DIR/log/smtp.log" 2>/dev/null || {
    echo "mail-servers: the SMTP server (smtp_sink.py) did not start on 127.0.0.1:$SMTP_PORT; its log:" >&2
    tail -n 30 "$DIR/log/smtp.log" >&2 || true
    exit 1
  }
  wait_port "$SMTP_PORT" "$SMTP_PID" "SMTP server (smtp_sink.py)" "$DIR/log/smtp.log"
  wait_port "$SMTP_STARTTLS_PORT" "$SMTP_PID" "SMTP server (smtp_sink.py, STARTTLS)" "$DIR/log/smtp.log"
  wait_port "$SMTPS_PORT" "$SMTP_PID" "SMTP server (smtp_sink.py, TLS)" "$DIR/log/smtp.log"

  # --- IMAP -----------------------------------------------------------------------
  local PASSWD="$DIR/dovecot/passwd"
  : >"$PASSWD"
  for u in $USERS; do echo "$u:{PLAIN}$PASSWORD::::::" >>"$PASSWD"; done
  chmod 644 "$PASSWD"

  local EXTRA=""
  if [ "$(id -u)" -ne 0 ]; then
    EXTRA="default_login_user = $MAILUSER
default_internal_user = $MAILUSER"
  fi

  cat >"$DIR/dovecot/dovecot.conf" <<CONF
# written by scripts/mail-servers.sh for tests; nothing outside $DIR is used
base_dir = $DIR/dovecot/run
state_dir = $DIR/dovecot/state
instance_name = castellan-test-$IMAP_PORT
log_path = $DIR/log/dovecot.log
info_log_path = $DIR/log/dovecot.log
protocols = imap
listen = 127.0.0.1
# TLS from the first byte on the imaps listener; the plain one offers STARTTLS but, on
# 127.0.0.1 and with disable_plaintext_auth = no, does not need it
ssl = yes
ssl_cert = <$TLS/server.pem
ssl_key = <$TLS/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
# tests try a wrong password on purpose: refuse it without the default 2 s wait
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:$DIR/mail/%n/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $PASSWD
}
userdb {
  driver = static
  args = uid=$MAILUSER gid=$MAILGROUP home=$DIR/mail/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
  inet_listener pop3s {
    port = 0
  }
}
$EXTRA
CONF

  if ! "$DOVECOT" -c "$DIR/dovecot/dovecot.conf" >>"$DIR/log/dovecot.log" 2>&1; then
    echo "mail-servers: dovecot refused to start; its log:" >&2
    tail -n 30 "$DIR/log/dovecot.log" >&2 || true
    exit 1
  fi
  local DPID=""
  for _ in $(seq 1 50); do
    [ -s "$DIR/dovecot/run/master.pid" ] && break
    sleep 0.1
  done
  DPID="$(cat "$DIR/dovecot/run/master.pid" 2>/dev/null || true)"
  [ -n "$DPID" ] || { tail -n 30 "$DIR/log/dovecot.log" >&2 || true; die "dovecot wrote no pid file"; }
  wait_port "$IMAP_PORT" "$DPID" "IMAP server (dovecot)" "$DIR/log/dovecot.log"
  wait_port "$IMAPS_PORT" "$DPID" "IMAPS server (dovecot)" "$DIR/log/dovecot.log"

  printf '%s\n' \
    "SMTP_PORT=$SMTP_PORT" \
    "SMTP_STARTTLS_PORT=$SMTP_STARTTLS_PORT" \
    "SMTPS_PORT=$SMTPS_PORT" \
    "IMAP_PORT=$IMAP_PORT" \
    "IMAPS_PORT=$IMAPS_PORT" \
    "CA_FILE=$TLS/ca.pem" >"$DIR/ports.env"
  trap - EXIT
  cat "$DIR/ports.env"
}

# running PID: true while PID is a live process. A zombie counts as gone: the servers are
# daemons whose parent is init, and an init that reaps slowly must not slow every stop.
running() {
  local state
  state="$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

stop() {
  # both told at once, then waited for (5 s at most, then killed)
  local pids=() pid f
  for f in "$DIR/smtp.pid" "$DIR/dovecot/run/master.pid"; do
    if [ -f "$f" ]; then
      pid="$(cat "$f")"
      [ -n "$pid" ] && kill "$pid" 2>/dev/null && pids+=("$pid")
      rm -f "$f"
    fi
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do running "$pid" || break; sleep 0.05; done
    running "$pid" && kill -9 "$pid" 2>/dev/null
  done
  rm -f "$DIR/ports.env"
}

case "$CMD" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
