import CLibPQ
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Statements on a nonblocking connection, waited for with a deadline.
///
/// `PQexec` blocks in the kernel until the server answers, and a server
/// that is frozen (SIGSTOP, a hung VM) or behind a network that lost its
/// route never does: on loopback the kernel even acknowledges every byte,
/// so TCP timeouts never fire. Here the statement is sent with `PQsend…`
/// and its answer awaited with `poll` on `PQsocket` until `answerWithin`
/// passes; then the socket is shut down (the server's backend sees the
/// client gone and rolls back) and the caller gets `.timedOut`. `PQcancel`
/// is not used: it blocks on a server that does not answer.
extension PostgresConnection {
    /// Sends with `send` (one `PQsend…` call) and returns what `PQexec`
    /// would: the first error result, else the last result. The caller
    /// owns it.
    func exchange(_ send: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        guard !dropped else {
            throw PostgresError(.connectionFailed, message: "connection dropped after an unanswered statement")
        }
        do {
            return try Self.exchange(conn, within: answerWithin, send)
        } catch let error as PostgresError where error.code == .timedOut {
            dropped = true
            shutdown(PQsocket(conn), Int32(SHUT_RDWR))
            throw error
        }
    }

    static func exchange(_ conn: OpaquePointer, within bound: Duration?,
                         _ send: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        let deadline = bound.map { ContinuousClock.now + $0 }
        guard send(conn) == 1 else { throw lost(conn) }
        // Everything out (a large bind may not fit the socket buffer at once).
        while true {
            let flushed = PQflush(conn)
            if flushed == 0 { break }
            if flushed < 0 { throw lost(conn) }
            let events = try wait(conn, for: Int16(POLLIN | POLLOUT), until: deadline, bound: bound)
            if events & Int16(POLLIN) != 0, PQconsumeInput(conn) != 1 { throw lost(conn) }
        }
        var kept: OpaquePointer?
        var failed: OpaquePointer?
        do {
            while true {
                while PQisBusy(conn) == 1 {
                    _ = try wait(conn, for: Int16(POLLIN), until: deadline, bound: bound)
                    guard PQconsumeInput(conn) == 1 else { throw lost(conn) }
                }
                guard let result = PQgetResult(conn) else { break }
                let status = PQresultStatus(result)
                if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
                    // Not used by this project; libpq would return it forever.
                    PQclear(result)
                    throw PostgresError(.unexpectedResult, message: "COPY is not supported")
                }
                switch status {
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                    if failed == nil {
                        if let kept { PQclear(kept) }
                        kept = result
                    } else {
                        PQclear(result)
                    }
                default:
                    if failed == nil { failed = result } else { PQclear(result) }
                }
            }
        } catch {
            if let kept { PQclear(kept) }
            if let failed { PQclear(failed) }
            throw error
        }
        if let failed {
            if let kept { PQclear(kept) }
            return failed
        }
        guard let kept else { throw PostgresError(.noResult, message: trimmed(PQerrorMessage(conn))) }
        return kept
    }

    /// Waits until the socket is ready for `events`; returns what it is
    /// ready for. Throws `.timedOut` at `deadline`.
    private static func wait(_ conn: OpaquePointer, for events: Int16, until deadline: ContinuousClock.Instant?,
                             bound: Duration?) throws -> Int16 {
        let fd = PQsocket(conn)
        guard fd >= 0 else { throw lost(conn) }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else {
                    throw PostgresError(.timedOut, message: "no answer from the database within \(bound ?? .zero); connection dropped")
                }
                timeout = Int32(clamping: left.wholeMilliseconds + 1)
            }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&descriptor, 1, timeout)
            if n > 0 { return descriptor.revents }
            if n < 0 && errno != EINTR {
                throw PostgresError(.connectionFailed, message: "poll on the database socket failed: errno \(errno)")
            }
        }
    }

    private static func lost(_ conn: OpaquePointer) -> PostgresError {
        PostgresError(PQstatus(conn) == CONNECTION_OK ? .noResult : .connectionFailed, message: trimmed(PQerrorMessage(conn)))
    }

    /// The `statement_timeout` in force on `conn`; nil when it is 0 (none).
    static func statementTimeout(on conn: OpaquePointer, within bound: Duration) throws -> Duration? {
        let result = try exchange(conn, within: bound) {
            PQsendQueryParams($0, "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'", 0, nil, nil, nil, nil, 0)
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) == 1,
              let ms = Int64(String(cString: PQgetvalue(result, 0, 0))) else {
            throw PostgresError(.unexpectedResult, message: "could not read statement_timeout: \(trimmed(PQresultErrorMessage(result)))")
        }
        return ms == 0 ? nil : .milliseconds(ms)
    }
}
