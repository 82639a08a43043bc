import Foundation
import Synchronization

/// While a command sends request after request (`grep -r`, `find`, `ls -l`), asks the kernel
/// to keep idle CPUs polling instead of halting: a CPU latency request of 0 µs, made by
/// writing it to /dev/cpu_dma_latency and kept while that file is open (the kernel's PM QoS).
///
/// The command sleeps while each answer is made, and its CPU halts; waking a halted CPU
/// costs as much as the answer itself (an exit to the host on a virtual machine, a C-state
/// exit on bare metal). The receiver stays awake between requests (`RequestLoop`), but it
/// cannot keep the command's CPU awake: this does, for the length of the burst only.
/// docs/DECISIONS.md, "Idle CPUs kept polling during a burst", has what it costs.
///
/// Held from the `burst`th request in a row that came while the receiver was still awake;
/// given back when no request came for `lingerMilliseconds`. Opening the device needs root
/// (or a udev rule giving it to the user); without it, or with `enabled` off, nothing is
/// requested.
final class BurstWakeLatency: Sendable {
    /// Requests in a row, each come before the receiver slept, that make a burst: a `cat`
    /// sends about four, `ls -l` of a small folder a dozen; a walk over a tree thousands.
    static let burst = 32
    /// Milliseconds the request stays held after the last request: longer than a
    /// command's pauses between two files, short enough that a burst's end costs little
    /// polling.
    static let lingerMilliseconds: Int32 = 20
    static let device = "/dev/cpu_dma_latency"

    private let device: String

    private enum State {
        case released
        case held(descriptor: Int32)
        /// Not enabled, or the device could not be opened (no root): never asked again.
        case unavailable
    }

    private let state: Mutex<State>

    init(enabled: Bool, device: String = BurstWakeLatency.device) {
        state = Mutex(enabled ? .released : .unavailable)
        self.device = device
    }

    var isHeld: Bool {
        state.withLock { if case .held = $0 { return true } else { return false } }
    }

    /// Asks for a wake-up latency of 0 µs until `release`, unless asked already.
    func hold() {
        state.withLock { state in
            guard case .released = state else { return }
            let descriptor = open(device, O_WRONLY | O_CLOEXEC)
            var latency: Int32 = 0
            guard descriptor >= 0, write(descriptor, &latency, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size else {
                if descriptor >= 0 { close(descriptor) }
                state = .unavailable
                return
            }
            state = .held(descriptor: descriptor)
        }
    }

    /// Gives the request back: closing the device ends it.
    func release() {
        state.withLock { state in
            guard case .held(let descriptor) = state else { return }
            close(descriptor)
            state = .released
        }
    }
}
