/// Joining, leaving, connection loss and the host role.
extension RaceStateMachine {
    mutating func join(_ id: PlayerID, name: PlayerName, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        let racers = members.count { $0.role == .racer }
        let spectators = members.count - racers
        let seatsOpen: Bool
        switch state {
        case .disposed:
            effects.append(.rejected(id, .roomClosed))
            return
        case .lobby, .countdown:
            seatsOpen = racers < configuration.maxPlayers
        case .running, .finished:
            seatsOpen = false  // late joiners spectate until the next round
        }
        if members.contains(where: { $0.id == id }) {
            effects.append(.rejected(id, .alreadyInRoom))
            return
        }
        if members.contains(where: { $0.name.key == name.key }) {
            effects.append(.rejected(id, .nameTaken(name)))
            return
        }
        let role: MemberRole
        if seatsOpen {
            role = .racer
        } else if spectators < configuration.maxSpectators {
            role = .spectator
        } else {
            effects.append(.rejected(id, .roomFull(maxPlayers: configuration.maxPlayers, maxSpectators: configuration.maxSpectators)))
            return
        }
        members.append(RoomMember(id: id, name: name, seat: nextSeat, role: role, isReady: false, connection: .connected))
        nextSeat += 1
        if host == nil && !configuration.conducted { host = id }
        effects.append(.roomUpdated(snapshot))
        effects.append(resync(id))
    }

    mutating func leave(_ id: PlayerID, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard members.contains(where: { $0.id == id }) else {
            effects.append(.rejected(id, rejectionForNonMember))
            return
        }
        removeMember(id, leftAt: now, into: &effects)
    }

    mutating func disconnect(_ id: PlayerID, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard let index = members.firstIndex(where: { $0.id == id }) else {
            effects.append(.rejected(id, rejectionForNonMember))
            return
        }
        guard members[index].isConnected else { return }  // already dropped: keep the first deadline
        members[index].connection = .disconnected(since: now, deadline: now + configuration.reconnectGrace)
        effects.append(.roomUpdated(snapshot))
    }

    /// Also accepted from a member who is still connected (a new socket
    /// replacing one whose loss was not noticed yet): it resyncs them.
    mutating func reconnect(_ id: PlayerID, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard let index = members.firstIndex(where: { $0.id == id }) else {
            effects.append(.rejected(id, rejectionForNonMember))
            return
        }
        let wasConnected = members[index].isConnected
        members[index].connection = .connected
        if !wasConnected { effects.append(.roomUpdated(snapshot)) }
        effects.append(resync(id))
        switch state {
        case .running(let running):
            if let racer = running.racers.first(where: { $0.id == id }), racer.isPlaying {
                effects.append(.sendQuestion(delivery(for: racer)))
            }
        case .lobby, .countdown, .finished, .disposed:
            break
        }
    }

    mutating func setReady(_ id: PlayerID, _ ready: Bool, into effects: inout [RaceEffect<Kind>]) {
        guard let index = members.firstIndex(where: { $0.id == id }) else {
            effects.append(.rejected(id, rejectionForNonMember))
            return
        }
        switch state {
        case .lobby:
            guard members[index].isReady != ready else { return }
            members[index].isReady = ready
            effects.append(.roomUpdated(snapshot))
        case .countdown, .running, .finished, .disposed:
            effects.append(.rejected(id, .notInLobby))
        }
    }

    /// Removes a member who left at `leftAt` (now, or when their connection
    /// dropped if their grace ran out). A racer's run so far is kept.
    mutating func removeMember(_ id: PlayerID, leftAt: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard let index = members.firstIndex(where: { $0.id == id }) else { return }
        members.remove(at: index)
        if host == id && !configuration.conducted { host = nextHost() }
        switch state {
        case .lobby:
            fillSeats()
        case .countdown:
            if members.count(where: { $0.role == .racer }) < configuration.minimumPlayers {
                state = .lobby  // not enough racers left: the countdown is cancelled
                fillSeats()
            }
        case .running(var running):
            if let r = running.racers.firstIndex(where: { $0.id == id }), running.racers[r].isPlaying {
                running.racers[r].status = .abandoned(at: max(leftAt, running.startedAt))
                state = .running(running)
                effects.append(.playerFinished(result(for: running.racers[r], in: running)))
                effects.append(.progress(progress(of: running)))
                finishIfEveryoneDone(at: clock, into: &effects)
            }
        case .finished, .disposed:
            break
        }
        if members.isEmpty && !configuration.conducted {
            state = .disposed
            host = nil
            effects.append(.roomDisposed)
        } else {
            effects.append(.roomUpdated(snapshot))
        }
    }

    /// The new host: the first connected racer in join order, else the first
    /// connected member, else the first member.
    func nextHost() -> PlayerID? {
        members.first { $0.role == .racer && $0.isConnected }?.id
            ?? members.first { $0.isConnected }?.id
            ?? members.first?.id
    }

    /// Before a race: spectators take free seats in join order.
    mutating func fillSeats() {
        var racers = members.count { $0.role == .racer }
        for index in members.indices where members[index].role == .spectator && racers < configuration.maxPlayers {
            members[index].role = .racer
            members[index].isReady = false
            racers += 1
        }
    }

    var rejectionForNonMember: RaceError {
        switch state {
        case .disposed: .roomClosed
        case .lobby, .countdown, .running, .finished: .notInRoom
        }
    }
}
