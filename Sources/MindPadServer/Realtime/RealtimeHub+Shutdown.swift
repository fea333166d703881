import MindPadRules

extension RealtimeHub {
    /// Before the transport closes every connection with 1001: each member
    /// of every room leaves it, so a run in progress ends now (its score so
    /// far counts, as with `leave_room`) and goes to storage, which writes or
    /// journals it before the process exits. Service thread only.
    public func closeRoomsForShutdown() {
        let open = Array(rooms.values)
        var members = 0
        for room in open {
            for member in room.snapshot.members {
                members += 1
                room.handle(.leave(member.id), request: nil)
            }
        }
        logger.notice("rooms closed for shutdown", metadata: ["rooms": "\(open.count)", "members": "\(members)"])
    }
}
