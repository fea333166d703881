import MindPadRules

extension RealtimeHub {
    /// Before the transport closes every connection with 1001: each member
    /// of every room leaves it, so a run in progress ends now (its score so
    /// far counts, as with `leave_room`) and goes to storage, which writes or
    /// journals it before the process exits. `then` runs on the service
    /// thread once every finished run is durable and its `finished` is
    /// queued (or after `wait`, if the disk does not answer). Service
    /// thread only.
    public func closeRoomsForShutdown(wait: RaceDuration = .seconds(3), then: @escaping () -> Void) {
        closeRoomsForShutdown()
        var done = false
        let once = {
            guard !done else { return }
            done = true
            then()
        }
        if let now = durability.whenAllDurable(once) { return now() }
        transport.schedule(at: transport.now + wait, once)
    }

    /// Ends every room's runs now (see above), without waiting.
    public func closeRoomsForShutdown() {
        stopping = true
        let open = Array(rooms.values)
        var members = 0
        for room in open {
            for member in room.snapshot.members {
                members += 1
                feed(room, .leave(member.id), request: nil)
            }
        }
        logger.notice("rooms closed for shutdown", metadata: ["rooms": "\(open.count)", "members": "\(members)"])
    }
}
