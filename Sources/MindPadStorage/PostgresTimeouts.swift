import CLibPQ
import Foundation

/// The deadlines of one libpq connection: how long connecting, a statement,
/// a lock wait and a silent network may take before the caller gets an
/// error instead of waiting.
///
/// They become libpq connection parameters and `-c name=value` options sent
/// at connect, all of which the operator's connection string may override:
/// a keyword in `DATABASE_URL` (`connect_timeout=10`, `tcp_user_timeout=0`)
/// replaces the default, and an `options` value in it (or `PGOPTIONS`) is
/// sent *after* these, so `options=-c statement_timeout=30s` wins too.
///
/// The server enforces the statement and lock timeouts; a server that
/// cannot answer at all (frozen, or a network that drops every packet) is
/// bounded on the client: `PostgresConnection` waits for an answer at most
/// the effective `statement_timeout` plus `clientGrace`, then drops the
/// connection. A `statement_timeout` of 0 set by the operator turns that
/// client bound off as well.
public struct PostgresTimeouts: Sendable, Equatable {
    /// libpq `connect_timeout`, whole seconds for the whole connection
    /// attempt (libpq's minimum is 2). Default 3.
    public var connect: Int = 3
    /// `statement_timeout`; nil leaves the server's. Default 5 s.
    public var statement: Duration? = .seconds(5)
    /// `lock_timeout`: a statement waiting for a lock another session holds
    /// gives up (SQLSTATE 55P03) after this; nil leaves the server's. Default 2 s.
    public var lock: Duration? = .seconds(2)
    /// `idle_in_transaction_session_timeout`, so a client stuck inside a
    /// transaction cannot hold its locks for long. Default 10 s.
    public var idleInTransaction: Duration? = .seconds(10)
    /// `client_connection_check_interval`: how often the server checks,
    /// during a long statement, whether the client gave up. Default 2 s.
    public var clientConnectionCheck: Duration? = .seconds(2)
    /// libpq `tcp_user_timeout`: data unacknowledged this long breaks the
    /// connection (a network that drops packets). Default 5 s.
    public var tcpUser: Duration? = .seconds(5)
    /// TCP keepalives on the idle socket: first probe after `idle` s, then
    /// every `interval` s, `count` unanswered probes break the connection.
    /// Default 10, 3, 3.
    public var keepalivesIdle = 10
    public var keepalivesInterval = 3
    public var keepalivesCount = 3
    /// How long past the effective `statement_timeout` the client waits for
    /// an answer before it drops the connection. Default 1 s.
    public var clientGrace: Duration = .seconds(1)

    public init() {}

    /// The database workers' deadlines: every default above.
    public static let serving = PostgresTimeouts()

    /// For long maintenance work (migrations, bulk loads): a connect
    /// timeout and keepalives only; statements run as long as they need.
    public static let maintenance: PostgresTimeouts = {
        var t = PostgresTimeouts()
        t.statement = nil
        t.lock = nil
        t.idleInTransaction = nil
        t.clientConnectionCheck = nil
        t.tcpUser = nil
        t.keepalivesIdle = 30
        return t
    }()

    /// The libpq keywords and values to pass before the connection string
    /// (so that its keywords win) and the `options` to pass after it.
    func parameters(applicationName: String) -> (before: [(String, String)], options: String) {
        var before = [
            ("connect_timeout", String(connect)), ("application_name", applicationName),
            ("keepalives", "1"), ("keepalives_idle", String(keepalivesIdle)),
            ("keepalives_interval", String(keepalivesInterval)), ("keepalives_count", String(keepalivesCount)),
        ]
        if let tcpUser { before.append(("tcp_user_timeout", String(tcpUser.wholeMilliseconds))) }
        var settings = [("client_min_messages", "warning")]
        if let statement { settings.append(("statement_timeout", String(statement.wholeMilliseconds))) }
        if let lock { settings.append(("lock_timeout", String(lock.wholeMilliseconds))) }
        if let idleInTransaction {
            settings.append(("idle_in_transaction_session_timeout", String(idleInTransaction.wholeMilliseconds)))
        }
        if let clientConnectionCheck {
            settings.append(("client_connection_check_interval", String(clientConnectionCheck.wholeMilliseconds)))
        }
        return (before, settings.map { "-c \($0.0)=\($0.1)" }.joined(separator: " "))
    }

    /// Our options followed by the operator's (from the connection string,
    /// else `PGOPTIONS`): PostgreSQL applies them in order, so theirs win.
    static func mergedOptions(_ ours: String, connectionString: String) -> String {
        let theirs = optionsKeyword(in: connectionString) ?? ProcessInfo.processInfo.environment["PGOPTIONS"]
        guard let theirs, !theirs.isEmpty else { return ours }
        return ours + " " + theirs
    }

    /// The `options` keyword of a libpq URI or key/value string, if it has one.
    static func optionsKeyword(in connectionString: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(connectionString, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(parsed) }
        var option = parsed
        while let keyword = option.pointee.keyword {
            if strcmp(keyword, "options") == 0 { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }
}
