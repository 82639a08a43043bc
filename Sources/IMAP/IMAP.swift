// The IMAP module: see Grammar/, Parser/, Client/.
