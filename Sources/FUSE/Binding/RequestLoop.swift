import CFuse3
import Foundation
import Synchronization

/// Receives a session's requests from /dev/fuse and answers them, in place of libfuse's
/// multithreaded loop (docs/DECISIONS.md, "One thread receives, awake between requests").
///
/// One thread at a time is the *receiver*: it reads a request and answers it on the spot,
/// and after each answer keeps asking the device for `spin` without sleeping. A command that
/// sends request after request (`grep -r`, `find`, `ls -l`) then finds it awake: no thread
/// has to be woken for its next request, which on this kind of machine cost as much as
/// answering it. Only after `spin` without a request does the receiver sleep in read().
///
/// A request that takes long (a download, a write waiting for the disk) must not hold up
/// the others, so a *watchdog* looks at the receiver every `tick`. When the receiver is
/// answering the same request at two looks in a row, the watchdog becomes the receiver, and
/// a new watchdog starts; the old receiver ends once it has answered. At most `maxThreads`
/// requests are answered at once. The watchdog sleeps while the receiver does.
///
/// A long run of requests, each come while the receiver was still awake, is a command
/// walking the tree: `wakeLatency` keeps the CPUs from halting until no request came for
/// its linger (`BurstWakeLatency`); the receiver waits that long before it sleeps.
final class RequestLoop: Sendable {
    /// How long the receiver keeps asking after an answer: longer than a command takes
    /// between two requests, far shorter than the pause of a person or a script.
    static let spin = Duration.microseconds(50)
    /// How often the watchdog looks while the receiver is awake: a request waits at most two
    /// ticks behind a slow one. Looking more often slowed `grep -r` measurably.
    static let tick: TimeInterval = 0.005

    private let session: SessionPointer
    private let fd: Int32
    /// The device's file status flags when the loop began, without O_NONBLOCK: the receiver
    /// sets them around each sleep, and with O_NONBLOCK after it.
    private let blockingFlags: Int32
    private let maxThreads: Int
    private let wakeLatency: BurstWakeLatency
    /// The receiver's state in one word, so a takeover is a single compare-and-exchange
    /// against the receiver finishing its request (`ReceiverState`).
    private let state = Atomic<UInt64>(0)
    /// Threads answering a request after a takeover made them give up receiving.
    private let replaced = Atomic<Int>(0)
    /// Set by the receiver before it sleeps in read(), cleared when it wakes.
    private let receiverAsleep = Atomic<Bool>(false)
    /// Set by the watchdog when it is about to sleep until the receiver wakes.
    private let watchdogParked = Atomic<Bool>(false)
    private let watchdogWake = DispatchSemaphore(value: 0)
    private let ending = Atomic<Bool>(false)
    /// How the loop ended: 0, or a negative errno from reading the device.
    private let result = Mutex<Int32>(0)
    /// Every thread the loop started, so `run` returns only once none uses the session.
    private let threads = DispatchGroup()

    init(session: SessionPointer, maxThreads: Int, wakeLatency: BurstWakeLatency) {
        self.session = session
        fd = fuse_session_fd(session.raw)
        blockingFlags = fcntl(fd, F_GETFL) & ~O_NONBLOCK
        self.maxThreads = max(maxThreads, 1)
        self.wakeLatency = wakeLatency
    }

    /// Serves until the session ends, the calling thread being the first receiver; returns
    /// 0 or a negative errno, once no thread of the loop is left.
    func run() -> Int32 {
        _ = fcntl(fd, F_SETFL, blockingFlags | O_NONBLOCK)
        startWatchdog()
        receive(term: 0)
        threads.wait()
        wakeLatency.release()
        return result.withLock { $0 }
    }

    // MARK: The receiver

    /// Receives and answers requests until the session ends or a watchdog takes over.
    private func receive(term: UInt64) {
        var buffer = fuse_buf()
        defer { free(buffer.mem) }
        var received: UInt64 = 0
        var awakeStreak = 0
        while fuse_session_exited(session.raw) == 0 {
            let (size, slept) = nextRequest(&buffer)
            if size == -EINTR || size == -EAGAIN { continue }
            guard size > 0 else {
                end(size)
                return
            }
            received &+= 1
            awakeStreak = slept ? 1 : awakeStreak + 1
            if awakeStreak == BurstWakeLatency.burst { wakeLatency.hold() }
            let busy = ReceiverState(term: term, received: received, answering: true)
            state.store(busy.word, ordering: .sequentiallyConsistent)
            fuse_session_process_buf(session.raw, &buffer)
            let idle = ReceiverState(term: term, received: received, answering: false)
            guard state.compareExchange(expected: busy.word, desired: idle.word,
                                        ordering: .sequentiallyConsistent).exchanged else {
                replaced.subtract(1, ordering: .relaxed)
                return
            }
        }
        end(0)
    }

    /// The next request: asked without sleeping for `spin`, then by sleeping; whether the
    /// receiver slept for it.
    private func nextRequest(_ buffer: inout fuse_buf) -> (size: Int32, slept: Bool) {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.spin
        repeat {
            let size = fuse_session_receive_buf(session.raw, &buffer)
            if size != -EAGAIN { return (size, false) }
            // Gives the CPU to the command about to send the next request, if it shares it.
            sched_yield()
        } while clock.now < deadline
        return (sleepingRequest(&buffer), true)
    }

    /// Sleeps until a request comes: in poll() for the linger while the CPUs are kept awake
    /// (then they are let go), in read() otherwise.
    private func sleepingRequest(_ buffer: inout fuse_buf) -> Int32 {
        receiverAsleep.store(true, ordering: .sequentiallyConsistent)
        defer {
            receiverAsleep.store(false, ordering: .sequentiallyConsistent)
            if watchdogParked.exchange(false, ordering: .sequentiallyConsistent) { watchdogWake.signal() }
        }
        if wakeLatency.isHeld {
            var device = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&device, 1, BurstWakeLatency.lingerMilliseconds)
            // Ready or interrupted: read without sleeping (EAGAIN when another thread took it).
            if ready != 0 { return fuse_session_receive_buf(session.raw, &buffer) }
            wakeLatency.release()
        }
        _ = fcntl(fd, F_SETFL, blockingFlags)
        let size = fuse_session_receive_buf(session.raw, &buffer)
        _ = fcntl(fd, F_SETFL, blockingFlags | O_NONBLOCK)
        return size
    }

    /// The session is over: records why and stops the watchdog.
    private func end(_ size: Int32) {
        if size < 0 { result.withLock { $0 = size } }
        ending.store(true, ordering: .sequentiallyConsistent)
        watchdogWake.signal()
    }

    // MARK: The watchdog

    private func startWatchdog() {
        threads.enter()
        let thread = Thread { [self] in
            watch()
            threads.leave()
        }
        thread.name = "mailfs-fuse-watchdog"
        thread.start()
    }

    /// Looks at the receiver every `tick` while it is awake; takes over from it when it has
    /// been answering one request since the previous look, and is then the receiver.
    private func watch() {
        var previous = ReceiverState(word: 0)
        while !ending.load(ordering: .sequentiallyConsistent) {
            waitForNextLook()
            if ending.load(ordering: .sequentiallyConsistent) { return }
            let seen = ReceiverState(word: state.load(ordering: .sequentiallyConsistent))
            if seen.answering, seen == previous, let term = takeOver(from: seen) {
                startWatchdog()
                receive(term: term)
                return
            }
            previous = seen
        }
    }

    /// The new receiver's term, or nil when the receiver finished meanwhile or the loop
    /// already answers `maxThreads` requests.
    private func takeOver(from seen: ReceiverState) -> UInt64? {
        guard replaced.load(ordering: .relaxed) + 2 <= maxThreads else { return nil }
        let term = seen.term &+ 1
        replaced.add(1, ordering: .relaxed)
        let fresh = ReceiverState(term: term, received: 0, answering: false)
        guard state.compareExchange(expected: seen.word, desired: fresh.word,
                                    ordering: .sequentiallyConsistent).exchanged else {
            replaced.subtract(1, ordering: .relaxed)
            return nil
        }
        return term
    }

    /// Sleeps `tick`, or until the receiver wakes if it sleeps in read(). Parking is
    /// announced first and checked again, so a receiver waking meanwhile is never missed.
    private func waitForNextLook() {
        guard receiverAsleep.load(ordering: .sequentiallyConsistent) else {
            Thread.sleep(forTimeInterval: Self.tick)
            return
        }
        watchdogParked.store(true, ordering: .sequentiallyConsistent)
        if !receiverAsleep.load(ordering: .sequentiallyConsistent),
           watchdogParked.exchange(false, ordering: .sequentiallyConsistent) {
            return
        }
        watchdogWake.wait()
    }
}

/// The receiver's term (one per takeover), how many requests it received in it, and whether
/// it is answering one, packed in a word: bits 32-63, 1-31 and 0.
private struct ReceiverState: Equatable {
    let word: UInt64

    init(word: UInt64) {
        self.word = word
    }

    init(term: UInt64, received: UInt64, answering: Bool) {
        word = term << 32 | (received & 0x7FFF_FFFF) << 1 | (answering ? 1 : 0)
    }

    var term: UInt64 { word >> 32 }
    var answering: Bool { word & 1 == 1 }
}
