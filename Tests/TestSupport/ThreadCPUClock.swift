#if canImport(Glibc)
import Glibc
#endif

/// The CPU time the calling thread spends in synchronous work: what the tests that guard
/// against quadratic work bound. Wall time is stretched by whatever else runs: the other
/// suites on two cores, and once a stall of the whole machine (31 s in which neither the tests
/// nor Dovecot logged anything), which no bound on wall time survives.
public enum ThreadCPUClock {
    public static func measure(_ work: () throws -> Void) rethrows -> Duration {
        let start = now()
        try work()
        return now() - start
    }

    private static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
