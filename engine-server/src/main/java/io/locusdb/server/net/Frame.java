package io.locusdb.server.net;

/** One received frame: its type byte and payload (the length prefix already checked and removed). */
record Frame(int type, byte[] payload) {
}
