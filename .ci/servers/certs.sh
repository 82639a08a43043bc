# Test certificates, sourced by start.sh: a CA, a server certificate it signs for 127.0.0.1 and
# localhost (IP SAN and DNS SAN, since clients verify by IP without SNI and by name with SNI),
# and a self-signed certificate no CA vouches for (the "self-signed server is refused" tests).
# P-256 keys: generated in milliseconds, where RSA keys took seconds here.

CERT_NAMES="IP:127.0.0.1,DNS:localhost"
CERT_KEY=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)

# $1 directory. Creates ca.pem, server.pem + server.key (CA-signed), selfsigned.pem + .key.
mailfs_make_certs() {
    local dir="$1"
    mkdir -p "$dir"
    openssl req -x509 "${CERT_KEY[@]}" -days 30 -keyout "$dir/ca.key" -out "$dir/ca.pem" \
        -subj "/O=mailfs tests/CN=mailfs test CA" -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl req -new "${CERT_KEY[@]}" -keyout "$dir/server.key" -out "$dir/server.csr" \
        -subj "/O=mailfs tests/CN=localhost" -addext "subjectAltName=$CERT_NAMES" 2>/dev/null
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -days 30 \
        -CAcreateserial -copy_extensions copy -out "$dir/server.pem" 2>/dev/null \
        -extfile <(printf '%s\n' basicConstraints=CA:FALSE extendedKeyUsage=serverAuth \
            subjectKeyIdentifier=hash authorityKeyIdentifier=keyid)
    openssl req -x509 "${CERT_KEY[@]}" -days 30 -keyout "$dir/selfsigned.key" \
        -out "$dir/selfsigned.pem" -subj "/O=mailfs tests/CN=localhost" \
        -addext "subjectAltName=$CERT_NAMES" 2>/dev/null
    rm -f "$dir/server.csr" "$dir/ca.srl"
    chmod 644 "$dir"/*.pem
    chmod 600 "$dir"/*.key
}
