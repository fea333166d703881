/// An error from PostgreSQL or libpq.
///
/// `description` is safe to show to a client (no SQL, no connection string);
/// `debugDescription` carries the server's message for the logs.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Code: String, Sendable {
        /// Could not connect, or the connection broke.
        case connectionFailed
        /// The server answered a statement with an error; see `sqlState`.
        case serverError
        /// libpq returned no result (out of memory or connection lost).
        case noResult
        /// No answer within the deadline: the job never got a worker, or the
        /// server stopped answering mid-statement (the connection was then
        /// dropped).
        case timedOut
        /// The result had an unexpected shape.
        case unexpectedResult
        /// Migration files or the migration history are inconsistent.
        case migration
    }

    public var code: Code
    /// The five-character SQLSTATE, when the server sent one.
    public var sqlState: String?
    /// The server's or libpq's message. Never shown to clients.
    public var message: String
    public var underlying: (any Error)?

    public init(_ code: Code, sqlState: String? = nil, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
        self.underlying = underlying
    }

    /// Whether the connection itself is gone (SQLSTATE class 08, admin
    /// shutdown, or a libpq-level failure), so reconnecting may help.
    public var isConnectionLoss: Bool {
        switch code {
        case .connectionFailed, .noResult, .timedOut: return true
        case .serverError:
            guard let state = sqlState else { return true }
            return state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
        case .unexpectedResult, .migration: return false
        }
    }

    /// A serialization failure, a deadlock, or the statement or lock
    /// timeout (SQLSTATE 57014 `query_canceled`, 55P03
    /// `lock_not_available`): the same statement may succeed if run again.
    public var isRetryable: Bool {
        switch sqlState {
        case "40001", "40P01", "57014", "55P03": return true
        default: return false
        }
    }

    /// Worth trying again later: the database was unreachable or went away,
    /// or the statement lost a deadlock or serialization race. Anything else
    /// is refused for good (a constraint, a bug).
    public var isTransient: Bool { isConnectionLoss || isRetryable }

    public var description: String {
        switch code {
        case .connectionFailed: return "database unavailable"
        case .serverError: return "database error \(sqlState ?? "?????")"
        case .noResult: return "database connection lost"
        case .timedOut: return "database did not answer in time"
        case .unexpectedResult: return "unexpected database result"
        case .migration: return "migration error: \(message)"
        }
    }

    public var debugDescription: String {
        "PostgresError(\(code.rawValue), sqlState: \(sqlState ?? "nil"), message: \(message))"
    }
}
