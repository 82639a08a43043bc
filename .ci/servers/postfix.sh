# Postfix for the tests, sourced by start.sh: a submission server from its own config
# directory. Authenticates through Dovecot's SASL socket, accepts mail only from
# authenticated users and only for MAIL_DOMAIN (anything else is refused at RCPT, so nothing
# ever leaves the machine), and delivers to Dovecot over LMTP. Listeners:
#   SMTPS            implicit TLS (465-style)
#   SUBMISSION       STARTTLS required before AUTH and MAIL (587-style)
#   SMTP_PLAIN       no STARTTLS offered, AUTH in clear (for "STARTTLS not offered" tests)
#   SMTPS_SELFSIGNED implicit TLS with the self-signed certificate
#   SMTPS_RCPT_LIMIT implicit TLS, at most RCPT_LIMIT recipients a transaction (452 beyond)
# Needs STATE, CERTS, MAIL_DOMAIN, MAIL_USERS, RCPT_LIMIT and the PORT_* variables of start.sh.

postfix_main_cf() {
    cat <<CONF
compatibility_level = 3.6
queue_directory = $STATE/postfix/queue
data_directory = $STATE/postfix/data
maillog_file = $STATE/postfix/postfix.log
maillog_file_prefixes = $STATE/postfix
myhostname = localhost
mydomain = $MAIL_DOMAIN
myorigin = \$mydomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks =
alias_maps =
alias_database =
biff = no
virtual_mailbox_domains = $MAIL_DOMAIN
virtual_mailbox_maps = texthash:$STATE/postfix/config/mailboxes
virtual_transport = lmtp:inet:127.0.0.1:$PORT_LMTP
unknown_virtual_mailbox_reject_code = 550
# bob+1@example.test is bob: many distinct recipients, one mailbox (Dovecot's LMTP strips the
# extension too, and delivers to INBOX). One recipient per LMTP transaction, so Dovecot writes
# each copy's Delivered-To: a test can count what every recipient received.
recipient_delimiter = +
lmtp_destination_recipient_limit = 1
smtpd_relay_restrictions = reject_unauth_destination
# later@example.test is refused for now (450) at every RCPT: a recipient a retry may reach.
smtpd_recipient_restrictions = check_recipient_access texthash:$STATE/postfix/config/recipient_access,
    permit_sasl_authenticated, reject
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $STATE/dovecot/auth-postfix
smtpd_tls_auth_only = yes
smtpd_tls_cert_file = $CERTS/server.pem
smtpd_tls_key_file = $CERTS/server.key
smtpd_tls_protocols = >=TLSv1.2
smtpd_tls_mandatory_protocols = >=TLSv1.2
smtpd_tls_security_level = encrypt
# Delivery is local and fast; a down Dovecot should be retried soon, not in an hour.
queue_run_delay = 10s
minimal_backoff_time = 10s
maximal_backoff_time = 60s
CONF
}

# Each listener is "127.0.0.1:port", so nothing else of the host is touched.
postfix_master_cf() {
    local selfsigned="-o smtpd_tls_cert_file=$CERTS/selfsigned.pem -o smtpd_tls_key_file=$CERTS/selfsigned.key"
    cat <<CONF
127.0.0.1:$PORT_SMTPS inet n - n - - smtpd -o smtpd_tls_wrappermode=yes
127.0.0.1:$PORT_SUBMISSION inet n - n - - smtpd
127.0.0.1:$PORT_SMTP_PLAIN inet n - n - - smtpd -o smtpd_tls_security_level=none -o smtpd_tls_auth_only=no
127.0.0.1:$PORT_SMTPS_SELFSIGNED inet n - n - - smtpd -o smtpd_tls_wrappermode=yes $selfsigned
127.0.0.1:$PORT_SMTPS_RCPT_LIMIT inet n - n - - smtpd -o smtpd_tls_wrappermode=yes -o smtpd_recipient_limit=$RCPT_LIMIT
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
CONF
}

postfix_configure() {
    local user
    # The queue stays outside the config directory: `postfix check` wants all of that owned by root.
    mkdir -p "$STATE/postfix/config" "$STATE/postfix/data"
    postfix_main_cf >"$STATE/postfix/config/main.cf"
    postfix_master_cf >"$STATE/postfix/config/master.cf"
    for user in "${MAIL_USERS[@]}"; do
        printf '%s@%s %s\n' "$user" "$MAIL_DOMAIN" "$user"
    done >"$STATE/postfix/config/mailboxes"
    printf 'later@%s 450 4.2.0 try again later (test)\n' "$MAIL_DOMAIN" >"$STATE/postfix/config/recipient_access"
    chown postfix "$STATE/postfix/data"
    postfix_make_queue
}

# The queue as `postfix check` would create it (which takes seconds): made directly, it lets
# `postfix start` skip its checks (quick-start) and start in a fraction of a second.
postfix_make_queue() {
    local queue="$STATE/postfix/queue" dir
    install -d -m 755 "$queue" "$queue/pid"
    for dir in active bounce corrupt defer deferred flush hold incoming private saved trace; do
        install -d -o postfix -g root -m 700 "$queue/$dir"
    done
    install -d -o postfix -g postdrop -m 730 "$queue/maildrop"
    install -d -o postfix -g postdrop -m 710 "$queue/public"
}

postfix_start() {
    touch "$STATE/postfix/queue/quick-start"
    postfix -c "$STATE/postfix/config" start </dev/null >>"$STATE/postfix/start.log" 2>&1
}
