package io.locusdb.protocol;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** Encodes messages as frames and decodes frame payloads, strictly: a payload must be consumed exactly. */
public final class MessageCodec {
    /** Decimal parameters longer than this are refused before BigDecimal parses them (it is quadratic). */
    public static final int MAX_DECIMAL_TEXT = 200;

    private MessageCodec() {
    }

    /** Appends {@code message} as one frame (BATCH excluded: use {@link BatchEncoder}). */
    public static void write(WireWriter w, Message message) {
        w.beginFrame(message.type());
        switch (message) {
            case Message.Startup m -> w.putString(m.user()).putString(m.password()).putString(m.token())
                    .putString(m.database()).putString(m.clientName());
            case Message.CancelRequest m -> w.putI64(m.sessionId()).putI64(m.cancelKey());
            case Message.Prepare m -> w.putString(m.sql());
            case Message.Execute m -> {
                w.putI32(m.statementId());
                w.putU16(m.parameters().size());
                for (Object p : m.parameters()) {
                    writeParameter(w, p);
                }
                w.putU32(m.maxRows()).putU32(m.fetchBatches()).putU32(m.timeoutMillis());
            }
            case Message.Query m -> w.putString(m.sql()).putU32(m.maxRows()).putU32(m.fetchBatches())
                    .putU32(m.timeoutMillis());
            case Message.Fetch m -> w.putU32(m.batches());
            case Message.Metadata m -> w.putU8(m.what()).putString(m.tablePattern()).putString(m.columnPattern());
            case Message.CloseStatement m -> w.putI32(m.statementId());
            case Message.Cancel m -> {
            }
            case Message.CloseResult m -> {
            }
            case Message.Terminate m -> {
            }
            case Message.Ping m -> {
            }
            case Message.Pong m -> {
            }
            case Message.Ready m -> w.putI64(m.sessionId()).putI64(m.cancelKey()).putString(m.serverVersion())
                    .putU32(m.maxFrameBytes()).putU32(m.maxStatements());
            case Message.Prepared m -> {
                w.putI32(m.statementId()).putU16(m.parameterCount()).putU16(m.columns().size());
                m.columns().forEach(w::putColumn);
            }
            case Message.ResultHeader m -> {
                w.putU8(m.rows() ? 0 : 1).putU16(m.columns().size());
                m.columns().forEach(w::putColumn);
            }
            case Message.ResultEnd m -> w.putI64(m.updateCount()).putI64(m.rowsSent()).putBool(m.truncated());
            case Message.Error m -> w.putString(m.sqlState()).putString(m.message()).putU32(m.line())
                    .putU32(m.column());
            case Message.Closed m -> w.putI32(m.statementId());
            case Message.Notice m -> w.putString(m.sqlState()).putString(m.message());
            case Message.Batch m -> {
                w.abandonFrame();
                throw new IllegalArgumentException("BATCH frames are written with BatchEncoder");
            }
        }
        w.endFrame();
    }

    /**
     * Decodes one payload. {@code columns} are the running result's columns, needed only for BATCH (null
     * otherwise, and a BATCH then is a protocol violation).
     */
    public static Message read(int type, WireReader r, List<ColumnDescription> columns) {
        Message m = switch (type) {
            case Protocol.STARTUP -> new Message.Startup(r.string("user"), r.string("password"), r.string("token"),
                    r.string("database"), r.string("client name"));
            case Protocol.CANCEL_REQUEST -> new Message.CancelRequest(r.i64("session id"), r.i64("cancel key"));
            case Protocol.PREPARE -> new Message.Prepare(r.string("sql"));
            case Protocol.EXECUTE -> {
                int id = r.i32("statement id");
                int count = r.u16("parameter count");
                List<Object> parameters = new ArrayList<>(Math.min(count, r.remaining()));
                for (int i = 0; i < count; i++) {
                    parameters.add(readParameter(r, i + 1));
                }
                yield new Message.Execute(id, parameters, r.u32("max rows"), r.u32("fetch batches"),
                        r.u32("timeout"));
            }
            case Protocol.QUERY -> new Message.Query(r.string("sql"), r.u32("max rows"), r.u32("fetch batches"),
                    r.u32("timeout"));
            case Protocol.FETCH -> new Message.Fetch(r.u32("batches"));
            case Protocol.CANCEL -> new Message.Cancel();
            case Protocol.CLOSE_RESULT -> new Message.CloseResult();
            case Protocol.CLOSE_STATEMENT -> new Message.CloseStatement(r.i32("statement id"));
            case Protocol.TERMINATE -> new Message.Terminate();
            case Protocol.PING -> new Message.Ping();
            case Protocol.METADATA -> {
                int what = r.u8("what");
                if (what != Message.Metadata.TABLES && what != Message.Metadata.COLUMNS) {
                    throw r.fail("what must be 1 (tables) or 2 (columns), got " + what);
                }
                yield new Message.Metadata(what, r.string("table pattern"), r.string("column pattern"));
            }
            case Protocol.READY -> new Message.Ready(r.i64("session id"), r.i64("cancel key"),
                    r.string("server version"), r.u32("max frame bytes"), r.u32("max statements"));
            case Protocol.PREPARED -> {
                int id = r.i32("statement id");
                int parameters = r.u16("parameter count");
                yield new Message.Prepared(id, parameters, readColumns(r));
            }
            case Protocol.RESULT_HEADER -> {
                int kind = r.u8("result kind");
                if (kind > 1) {
                    throw r.fail("result kind must be 0 or 1, got " + kind);
                }
                yield new Message.ResultHeader(kind == 0, readColumns(r));
            }
            case Protocol.BATCH -> {
                if (columns == null) {
                    throw r.fail("no result is open");
                }
                yield new Message.Batch(BatchDecoder.decode(r, columns));
            }
            case Protocol.RESULT_END -> new Message.ResultEnd(r.i64("update count"), r.i64("rows sent"),
                    r.bool("truncated"));
            case Protocol.ERROR -> new Message.Error(r.string("sqlstate"), r.string("message"), r.u32("line"),
                    r.u32("column"));
            case Protocol.CLOSED -> new Message.Closed(r.i32("statement id"));
            case Protocol.PONG -> new Message.Pong();
            case Protocol.NOTICE -> new Message.Notice(r.string("sqlstate"), r.string("message"));
            default -> throw ProtocolException.malformed(String.format("unknown message type 0x%02X", type));
        };
        r.expectEnd();
        return m;
    }

    private static List<ColumnDescription> readColumns(WireReader r) {
        int count = r.u16("column count");
        List<ColumnDescription> columns = new ArrayList<>(Math.min(count, r.remaining()));
        for (int i = 0; i < count; i++) {
            columns.add(r.column("column " + (i + 1)));
        }
        return List.copyOf(columns);
    }

    public static void writeParameter(WireWriter w, Object value) {
        switch (value) {
            case null -> w.putU8(0);
            case Boolean b -> w.putU8(WireType.BOOLEAN).putBool(b);
            case Integer i -> w.putU8(WireType.INTEGER).putI32(i);
            case Short s -> w.putU8(WireType.INTEGER).putI32(s);
            case Byte b -> w.putU8(WireType.INTEGER).putI32(b);
            case Long l -> w.putU8(WireType.BIGINT).putI64(l);
            case Double d -> w.putU8(WireType.DOUBLE).putF64(d);
            case Float f -> w.putU8(WireType.DOUBLE).putF64(f);
            case BigDecimal d -> w.putU8(WireType.DECIMAL).putString(d.toPlainString());
            case LocalDate d -> {
                long days = d.toEpochDay();
                if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("date " + d + " is out of range");
                }
                w.putU8(WireType.DATE).putI32((int) days);
            }
            case LocalDateTime t -> w.putU8(WireType.TIMESTAMP).putI64(WireType.micros(t));
            case OffsetDateTime t -> w.putU8(WireType.TIMESTAMP_TZ).putI64(WireType.micros(t));
            case String s -> w.putU8(WireType.VARCHAR).putString(s);
            default -> throw new IllegalArgumentException("parameters of type " + value.getClass().getName()
                    + " are not supported");
        }
    }

    static Object readParameter(WireReader r, int index) {
        String field = "parameter " + index;
        int tag = r.u8(field + " type");
        return switch (tag) {
            case 0 -> null;
            case WireType.BOOLEAN -> r.bool(field);
            case WireType.INTEGER -> r.i32(field);
            case WireType.BIGINT -> r.i64(field);
            case WireType.DOUBLE -> r.f64(field);
            case WireType.DECIMAL -> {
                String text = r.string(field);
                if (text.length() > MAX_DECIMAL_TEXT) {
                    throw r.fail(field + ": decimal text of " + text.length() + " characters is too long");
                }
                try {
                    yield new BigDecimal(text);
                } catch (NumberFormatException e) {
                    throw r.fail(field + ": '" + text + "' is not a decimal number");
                }
            }
            case WireType.DATE -> LocalDate.ofEpochDay(r.i32(field));
            case WireType.TIMESTAMP -> WireType.dateTime(r.i64(field));
            case WireType.TIMESTAMP_TZ -> WireType.instant(r.i64(field));
            case WireType.VARCHAR, WireType.CHAR -> r.string(field);
            default -> throw r.fail(field + " has unknown type tag " + tag);
        };
    }
}
