import CLibPQ
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `NOTIFY` as a listening connection received it.
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    /// The backend process that sent it (`pg_backend_pid()` of the sender).
    public var senderPID: Int32
}

/// LISTEN on a connection and wait for what arrives (libpq's
/// asynchronous notification: `PQconsumeInput` when the socket is readable,
/// then `PQnotifies` until it has nothing more). Notifications are
/// delivered between transactions, so the connection used here must do
/// nothing else.
extension PostgresConnection {
    /// `LISTEN channel`. The channel is an identifier, quoted here (it
    /// cannot be a bind); it comes from source code, never from a client.
    public func listen(_ channel: String) throws {
        try execute(script: "LISTEN \(try escapeIdentifier(channel))")
    }

    /// This session's backend process id (`pg_backend_pid()`).
    public var backendPID: Int32 { PQbackendPID(conn) }

    /// Waits up to `timeout` for the socket to become readable, reads what
    /// came and returns every notification received (none on a timeout).
    /// Throws `connectionFailed` when the connection is lost (the server
    /// ended it, the network broke): the caller connects again.
    public func waitForNotifications(timeout: Duration) throws -> [PostgresNotification] {
        guard isHealthy else { throw PostgresError(.connectionFailed, message: "connection lost") }
        var found = takeNotifications()
        guard found.isEmpty else { return found }
        let fd = PQsocket(conn)
        guard fd >= 0 else { throw PostgresError(.connectionFailed, message: "connection has no socket") }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&descriptor, 1, Int32(clamping: timeout.wholeMilliseconds))
        if n < 0 && errno != EINTR {
            throw PostgresError(.connectionFailed, message: "poll on the database socket failed: errno \(errno)")
        }
        guard n > 0 else { return [] }
        // Readable, or an error or hang-up: consuming tells which.
        guard PQconsumeInput(conn) == 1, PQstatus(conn) == CONNECTION_OK else {
            throw PostgresError(.connectionFailed, message: Self.trimmed(PQerrorMessage(conn)))
        }
        found = takeNotifications()
        return found
    }

    private func takeNotifications() -> [PostgresNotification] {
        var found: [PostgresNotification] = []
        while let notify = PQnotifies(conn) {
            let n = notify.pointee
            found.append(PostgresNotification(channel: String(cString: n.relname), payload: String(cString: n.extra),
                                              senderPID: n.be_pid))
            PQfreemem(notify)
        }
        return found
    }
}
