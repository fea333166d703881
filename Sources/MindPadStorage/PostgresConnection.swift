import CLibPQ
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection. Every libpq call of the project goes through here.
///
/// Not thread-safe by design: libpq allows one thread at a time per `PGconn`,
/// so a connection is owned by exactly one database worker thread (see
/// `DatabaseWorkerPool`). `@unchecked Sendable` only so it can be created on
/// one thread and handed to the worker that owns it from then on.
public final class PostgresConnection: @unchecked Sendable {
    let conn: OpaquePointer
    /// Server-side prepared statements of this session, by SQL text.
    private var prepared: [String: String] = [:]
    /// How long one statement may go unanswered before the connection is
    /// dropped; nil waits as long as the server takes.
    let answerWithin: Duration?
    /// Set when an answer did not come in time: the socket is shut down
    /// and the connection is unusable.
    var dropped = false

    /// Connects, blocking at most `timeouts.connect` seconds per attempt.
    /// `connectionString` is a libpq URI (`postgresql://user@host:port/db?…`)
    /// or key/value string (`host=… dbname=…`); its keywords and `options`
    /// override `timeouts` (see `PostgresTimeouts`). The default,
    /// `.maintenance`, puts no deadline on statements; the database workers
    /// use `.serving`.
    public init(connectionString: String, applicationName: String = "mindpad",
                timeouts: PostgresTimeouts = .maintenance) throws {
        // Defaults first: libpq lets later keywords, and the expanded
        // connection string, override earlier ones. `options` comes last,
        // already merged with the string's own.
        let (before, ours) = timeouts.parameters(applicationName: applicationName)
        let options = PostgresTimeouts.mergedOptions(ours, connectionString: connectionString)
        let keys = before.map(\.0) + ["dbname", "options"]
        let values = before.map(\.1) + [connectionString, options]
        let c: OpaquePointer? = withCStringArray(keys) { k in
            withCStringArray(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let c else {
            throw PostgresError(.connectionFailed, message: "libpq could not allocate a connection")
        }
        guard PQstatus(c) == CONNECTION_OK, PQsetnonblocking(c, 1) == 0 else {
            let message = Self.trimmed(PQerrorMessage(c))
            PQfinish(c)
            throw PostgresError(.connectionFailed, message: message)
        }
        var bound: Duration?
        if timeouts.statement != nil {
            // The client's bound follows the statement_timeout in force,
            // which the operator's options may have changed (0: no bound).
            do {
                bound = try Self.statementTimeout(on: c, within: .seconds(max(2, timeouts.connect)))
                    .map { $0 + timeouts.clientGrace }
            } catch {
                PQfinish(c)
                throw error
            }
        }
        conn = c
        answerWithin = bound
    }

    deinit { PQfinish(conn) }

    /// Whether libpq still considers the connection usable.
    public var isHealthy: Bool { !dropped && PQstatus(conn) == CONNECTION_OK }

    /// Runs one parameterized statement (`$n` binds, text format).
    @discardableResult
    public func query(_ query: SQLQuery) throws -> PostgresRows {
        try consume(exchange { conn in
            withOptionalCStringArray(query.binds) { values in
                PQsendQueryParams(conn, query.sql, Int32(query.binds.count), nil, values, nil, nil, 0)
            }
        })
    }

    /// Runs one parameterized statement through a server-side prepared
    /// statement, prepared on first use in this session: later runs skip
    /// parsing and, once PostgreSQL settles on a generic plan, planning.
    /// For statements run often with the same text.
    @discardableResult
    public func query(_ query: SQLQuery, prepared: Bool) throws -> PostgresRows {
        guard prepared else { return try self.query(query) }
        let name: String
        if let known = self.prepared[query.sql] {
            name = known
        } else {
            name = "mindpad_\(self.prepared.count + 1)"
            _ = try consume(exchange { PQsendPrepare($0, name, query.sql, Int32(query.binds.count), nil) })
            self.prepared[query.sql] = name
        }
        return try consume(exchange { conn in
            withOptionalCStringArray(query.binds) { values in
                PQsendQueryPrepared(conn, name, Int32(query.binds.count), values, nil, nil, 0)
            }
        })
    }

    /// Runs a script of one or more statements with no parameters, such as a
    /// migration file or `BEGIN`. Never pass text that contains user input.
    @discardableResult
    public func execute(script: String) throws -> PostgresRows {
        try consume(exchange { PQsendQuery($0, script) })
    }

    /// Runs `body` inside BEGIN/COMMIT, rolling back when it throws.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute(script: "BEGIN")
        do {
            let value = try body(self)
            try execute(script: "COMMIT")
            return value
        } catch {
            if isHealthy { _ = try? execute(script: "ROLLBACK") }
            throw error
        }
    }

    /// Quotes an identifier (database or role name) for the rare statements
    /// that cannot take a parameter, such as `CREATE DATABASE`.
    public func escapeIdentifier(_ name: String) throws -> String {
        guard let escaped = PQescapeIdentifier(conn, name, name.utf8.count) else {
            throw PostgresError(.unexpectedResult, message: Self.trimmed(PQerrorMessage(conn)))
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    private func consume(_ result: OpaquePointer) throws -> PostgresRows {
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresRows(result)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.trimmed(PQresultErrorMessage(result))
            if PQstatus(conn) != CONNECTION_OK {
                throw PostgresError(.connectionFailed, sqlState: state, message: message)
            }
            throw PostgresError(.serverError, sqlState: state, message: message)
        }
    }

    /// libpq's message on one line (it spreads hints over several), so a
    /// log event stays one line.
    static func trimmed(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

/// A fully read result in text format. libpq's result is freed before this
/// is returned, so it can travel between threads.
public struct PostgresRows: Sendable {
    public let columns: [String]
    public let rows: [[String?]]
    /// Rows affected by INSERT/UPDATE/DELETE (PQcmdTuples), 0 otherwise.
    public let affectedRows: Int

    init(_ result: OpaquePointer) {
        let nFields = PQnfields(result)
        let nTuples = PQntuples(result)
        columns = (0..<nFields).map { String(cString: PQfname(result, $0)) }
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(nTuples))
        for r in 0..<nTuples {
            rows.append((0..<nFields).map { f in
                PQgetisnull(result, r, f) == 1 ? nil : String(cString: PQgetvalue(result, r, f))
            })
        }
        self.rows = rows
        affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    public var count: Int { rows.count }

    /// The value of `column` in row `row`, or nil for SQL NULL or a missing column.
    public func value(_ column: String, row: Int = 0) -> String? {
        guard row < rows.count, let i = columns.firstIndex(of: column) else { return nil }
        return rows[row][i]
    }
}

/// Calls `body` with a NULL-free C array of C strings that live for the call.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    withOptionalCStringArray(strings.map { Optional($0) } + [nil], body)
}

/// Calls `body` with a C array of optional C strings (nil = SQL NULL) that
/// live for the call.
func withOptionalCStringArray<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
