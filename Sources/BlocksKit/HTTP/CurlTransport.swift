import BlocksCurl

/// The real transport: every transfer the tool makes goes through libcurl here, the
/// only file that touches libcurl.
///
/// Each request uses connect and low-speed timeouts, follows at most a few redirects
/// (never from https to anything but https, never to a scheme other than http or
/// https), caps the body size, and retries transport errors, 408, 429 and 5xx with
/// exponential backoff and jitter, honoring `Retry-After`.
///
/// Proxies: libcurl itself reads `http_proxy`, `https_proxy`, `all_proxy` and
/// `no_proxy` from the environment on every transfer. Nothing here sets
/// `CURLOPT_PROXY` or `CURLOPT_NOPROXY`, so that behavior stays on; keep it that way.
///
/// The bearer token is sent as `Authorization: Bearer …` and never appears in an
/// error, a log line or verbose output: libcurl's verbose mode is never enabled, and
/// every message is scrubbed of the token. libcurl drops a custom `Authorization`
/// header when a redirect leads to another host.
///
/// A request with headers of its own (a namespaced registry's, which may hold any secret
/// in any header) follows its redirects here rather than in libcurl, which would send
/// every custom header but `Authorization` to any host: each hop is checked as libcurl
/// would check it, and once a hop leaves the first URL's origin (scheme, host and port)
/// neither those headers nor the token go with it again.
///
/// Transfers block the calling thread (commands are synchronous). Each call owns its
/// libcurl handles from start to end, so one transport can serve several threads. The
/// multi handle (and with it libcurl's cache of open connections) goes back to a pool
/// after each call, so the next call to the same server reuses its kept-alive
/// connections instead of opening new ones: `add` asks for metadata, then archives.
public final class CurlTransport: HTTPTransport, Sendable {
    /// Loads libcurl (the shim opens it with dlopen on first use, so commands that never
    /// transfer never load it) and runs its process-wide setup, once. Nil when ready,
    /// else why not. `curl_global_cleanup` is never called: Foundation may use libcurl in
    /// the same process.
    private static let setupFailure: String? = {
        guard blocks_curl_available() else { return missingLibraryReason }
        return blocks_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK ? nil : "libcurl could not start"
    }()

    static let missingLibraryReason =
        "libcurl (libcurl4) is not installed or lacks a needed function; install it, for example with `apt-get install libcurl4`"

    /// Whether libcurl loaded with every function the transport calls.
    static var isLibraryAvailable: Bool { blocks_curl_available() }

    #if DEBUG
    /// Whether libcurl would load from the first of `candidates` that opens and has every
    /// function. Only for tests: the real list lives in the shim.
    static func libraryLoads(fromCandidates candidates: [String]) -> Bool {
        let names = candidates.map { strdup($0) }
        defer { names.forEach { free($0) } }
        return names.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            blocks_curl_loads_from($0.baseAddress, $0.count)
        }
    }
    #endif

    private let token: String?
    /// The one origin (scheme, host, port) the token belongs to: the default registry's.
    /// Nil until a command binds it (`sendingDefaultToken(to:)`), so a request to any other
    /// host, whatever a lock, an index or the command line names, never carries it.
    private let tokenOrigin: HTTPOrigin?
    public let settings: TransferSettings
    private let log: (@Sendable (String) -> Void)?
    /// Receives what a person at a terminal should know while a transfer waits: each retry
    /// and its reason, and a server that has said nothing for `settings.stallNotice` s.
    private let notice: (@Sendable (String) -> Void)?
    private let multiHandles: MultiHandlePool

    /// - Parameters:
    ///   - token: sent as `Authorization: Bearer <token>`; nil or empty sends nothing.
    ///   - tokenOrigin: the only origin the token goes to; nil sends it nowhere.
    ///   - settings: timeouts, retries and redirects.
    ///   - log: receives one line per attempt and retry (tests read it), never the token.
    ///   - notice: receives the waits worth telling a person about (see `notice`), never the token.
    public init(
        token: String? = nil, tokenOrigin: HTTPOrigin? = nil, settings: TransferSettings = TransferSettings(),
        log: (@Sendable (String) -> Void)? = nil, notice: (@Sendable (String) -> Void)? = nil
    ) {
        let trimmed = token?.trimmingWhitespace()
        self.token = (trimmed?.isEmpty ?? true) ? nil : trimmed
        self.tokenOrigin = tokenOrigin
        self.settings = settings
        self.log = log
        self.notice = notice
        multiHandles = MultiHandlePool()
    }

    private init(sharing transport: CurlTransport, notice: (@Sendable (String) -> Void)?, tokenOrigin: HTTPOrigin?) {
        token = transport.token
        self.tokenOrigin = tokenOrigin
        settings = transport.settings
        log = transport.log
        self.notice = notice
        multiHandles = transport.multiHandles
    }

    /// This transport, with its open connections, sending the token to `origin` only.
    public func sendingDefaultToken(to origin: HTTPOrigin?) -> HTTPTransport {
        CurlTransport(sharing: self, notice: notice, tokenOrigin: origin)
    }

    /// This transport, with its open connections, telling `notice` what it waits for: a
    /// `Retry-After` or backoff before a retry, or a server that does not answer. Without
    /// it a 503 with `Retry-After: 60`, or a server that accepts and never answers, keeps
    /// a command silent for a minute.
    public func announcing(to notice: @escaping @Sendable (String) -> Void) -> CurlTransport {
        CurlTransport(sharing: self, notice: notice, tokenOrigin: tokenOrigin)
    }

    /// A transport holding `BLOCKS_TOKEN` from `environment` when it is set, to send once a
    /// command names the default registry's origin (`sendingDefaultToken(to:)`).
    public convenience init(
        environment: [String: String], settings: TransferSettings = TransferSettings(),
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.init(token: environment["BLOCKS_TOKEN"], settings: settings, log: log)
    }

    /// The body in memory. Any 2xx is a response, and so is a 304; other statuses,
    /// after retries where they apply, throw `HTTPError`.
    public func get(_ request: HTTPRequest) throws -> HTTPResponse {
        let job = TransferJob(request: request, destination: nil, expectedSHA256: nil)
        let results = run([job], maxParallel: 1, progress: nil)
        return try results[0].get()
    }

    /// Streams each body to `<destination>.part` (creating the destination's folder),
    /// hashing it on the way, and renames it to `destination` only after a 200, a
    /// complete body and a matching `expectedSHA256`. A failed download leaves neither
    /// file. A 304 to a request with `ifNoneMatch` succeeds and leaves the destination
    /// as it was. `progress` runs on the calling thread: `filesDone` counts finished
    /// downloads (failed ones too) and `bytesDone` the bytes of successful and current
    /// attempts, so it can step back when an attempt is retried.
    public func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        let jobs = downloads.map { download in
            let job = TransferJob(
                request: download.request, destination: download.destination, expectedSHA256: download.expectedSHA256)
            job.keepsBody = download.keepsBody
            return job
        }
        return run(jobs, maxParallel: maxParallel, progress: progress)
    }

    /// Small bodies in memory, in parallel, through the same loop as downloads.
    public func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        run(requests.map { TransferJob(request: $0, destination: nil, expectedSHA256: nil) }, maxParallel: maxParallel, progress: nil)
    }

    /// Loads libcurl and runs `curl_global_init`, if that has not happened yet.
    public func prepare() {
        _ = Self.setupFailure
    }

    // MARK: - The transfer loop

    /// Drives all jobs through one multi handle: at most `maxParallel` in flight,
    /// failed attempts re-queued after their backoff, until every job has a result.
    private func run(
        _ jobs: [TransferJob], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        guard !jobs.isEmpty else { return [] }
        if let reason = Self.setupFailure {
            return jobs.map { .failure(.transport(url: redact($0.request.url), reason: reason)) }
        }
        let origins = Set(jobs.compactMap { HTTPOrigin($0.request.url) })
        guard let taken = multiHandles.take(for: origins) else {
            return jobs.map { .failure(.transport(url: redact($0.request.url), reason: "libcurl could not start")) }
        }
        let multi = taken.handle
        var multiIsHealthy = true
        defer {
            if multiIsHealthy { multiHandles.give(multi, origins: taken.origins.union(origins)) } else { blocks_curl_multi_cleanup(multi) }
        }
        var round = TransferRound(
            pending: jobs, limit: max(1, maxParallel), progress: ProgressTracker(total: jobs.count, callback: progress),
            notices: NoticeThrottle(notice: notice, interval: jobs.count == 1 ? 0 : 2))
        while !round.isOver {
            startReadyJobs(&round, on: multi)
            guard perform(&round, on: multi) else {
                multiIsHealthy = false
                break
            }
            let concluded = collectFinishedTransfers(&round, on: multi)
            round.progress.report(activeBytes: round.active.values.reduce(0) { $0 + $1.sink.keptCount }, force: false)
            if notice != nil { announceStalls(in: round.active.values, notices: &round.notices) }
            if round.isOver { break }
            // A finished transfer freed a slot: fill it now rather than after the next wait.
            if concluded && !round.pending.isEmpty && round.active.count < round.limit { continue }
            waitForActivity(round, on: multi)
        }
        round.progress.report(activeBytes: 0, force: true)
        return jobs.map {
            $0.result ?? .failure(.transport(url: redact($0.request.url), reason: "the transfer did not finish"))
        }
    }

    /// Starts every pending job whose backoff has passed, while slots are free.
    private func startReadyJobs(_ round: inout TransferRound, on multi: UnsafeMutableRawPointer) {
        let now = Date()
        var index = 0
        while round.active.count < round.limit, index < round.pending.count {
            guard round.pending[index].notBefore <= now else {
                index += 1
                continue
            }
            let job = round.pending.remove(at: index)
            switch start(job) {
            case .success(let attempt):
                if blocks_curl_multi_add_handle(multi, attempt.handle) == CURLM_OK {
                    round.active[attempt.handle] = attempt
                } else {
                    attempt.sink.discard()
                    attempt.release()
                    finish(job, .failure(.transport(url: redact(job.request.url), reason: "libcurl refused the transfer")), &round.progress)
                }
            case .failure(let error):
                finish(job, .failure(error), &round.progress)
            }
        }
    }

    /// Lets libcurl move every transfer along. False when the multi handle itself broke (out
    /// of memory, say): every transfer, running or waiting, has then failed with the reason.
    private func perform(_ round: inout TransferRound, on multi: UnsafeMutableRawPointer) -> Bool {
        var running: Int32 = 0
        let performed = blocks_curl_multi_perform(multi, &running)
        guard performed != CURLM_OK else { return true }
        let reason = "libcurl failed: \(String(cString: blocks_curl_multi_strerror(performed)))"
        for attempt in round.active.values {
            blocks_curl_multi_remove_handle(multi, attempt.handle)
            attempt.sink.discard()
            attempt.release()
            finish(attempt.job, .failure(.transport(url: attempt.job.request.url, reason: reason)), &round.progress)
        }
        round.active.removeAll()
        for job in round.pending {
            finish(job, .failure(.transport(url: job.request.url, reason: reason)), &round.progress)
        }
        round.pending.removeAll()
        return false
    }

    /// Settles every transfer libcurl says is done: a result, or a retry scheduled after
    /// its backoff. Returns whether any finished.
    private func collectFinishedTransfers(_ round: inout TransferRound, on multi: UnsafeMutableRawPointer) -> Bool {
        var left: Int32 = 0
        var concluded = false
        while let message = blocks_curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let attempt = round.active.removeValue(forKey: handle)
            else { continue }
            let code = message.pointee.data.result
            blocks_curl_multi_remove_handle(multi, handle)
            concluded = true
            let outcome = conclude(attempt, code: code)
            attempt.release()
            if case .done(.success) = outcome { round.progress.settle(bytes: attempt.sink.keptCount) }
            switch outcome {
            case .done(let result):
                finish(attempt.job, result, &round.progress)
            case .redirect:
                // Not a new attempt: the retry count is for failures.
                attempt.job.attempts -= 1
                attempt.job.notBefore = .distantPast
                round.pending.append(attempt.job)
            case .retry(let reason, let retryAfter):
                retryOrGiveUp(attempt.job, reason: reason, retryAfter: retryAfter, &round)
            }
        }
        return concluded
    }

    /// A failed attempt goes back to the pending jobs after its backoff, or, past the retry
    /// budget or a `Retry-After` longer than we wait, ends with its last error.
    private func retryOrGiveUp(_ job: TransferJob, reason: String, retryAfter: TimeInterval?, _ round: inout TransferRound) {
        if RetryPolicy.waitIsTooLong(retryAfter: retryAfter, settings: settings),
            case .status(let url, let code)? = job.lastError, let retryAfter
        {
            finish(job, .failure(.retryLater(url: url, code: code, seconds: retryAfter, limit: settings.maxRetryDelay)), &round.progress)
        } else if let delay = scheduleRetry(job, reason: reason, retryAfter: retryAfter, notices: &round.notices),
            Date().addingTimeInterval(delay) < job.deadline
        {
            job.notBefore = Date().addingTimeInterval(delay)
            round.pending.append(job)
        } else {
            finish(job, .failure(job.lastError ?? .transport(url: redact(job.request.url), reason: reason)), &round.progress)
        }
    }

    /// Waits for network activity, or until the next backoff ends, at most a second.
    private func waitForActivity(_ round: TransferRound, on multi: UnsafeMutableRawPointer) {
        var waitMilliseconds: Int32 = 1000
        if let nextStart = round.pending.map(\.notBefore).min(), round.active.count < round.limit {
            let milliseconds = max(0, nextStart.timeIntervalSinceNow * 1000)
            waitMilliseconds = Int32(min(1000, milliseconds.rounded(.up)))
        }
        if round.active.isEmpty {
            if waitMilliseconds > 0 { usleep(UInt32(waitMilliseconds) * 1000) }
        } else {
            blocks_curl_multi_poll(multi, nil, 0, waitMilliseconds, nil)
        }
    }

    private func finish(_ job: TransferJob, _ result: Result<HTTPResponse, HTTPError>, _ tracker: inout ProgressTracker) {
        job.result = result.mapError(redact)
        tracker.fileDone()
        if case .failure(let error) = job.result { log?(error.description) }
    }

    /// Counts the attempt; returns the delay before the next one, or nil when none are left.
    private func scheduleRetry(
        _ job: TransferJob, reason: String, retryAfter: TimeInterval?, notices: inout NoticeThrottle
    ) -> TimeInterval? {
        let attempts = job.attempts
        guard attempts <= settings.retries else { return nil }
        let delay = RetryPolicy.delay(beforeRetry: attempts, retryAfter: retryAfter, settings: settings)
        let attempt = "(attempt \(attempts + 1) of \(settings.retries + 1))"
        log?("GET \(redact(job.request.url)): \(redact(reason)); retrying in \(delay.fixedPoint(places: 2)) s \(attempt)")
        let asked = retryAfter == nil ? "" : ", as the server asked"
        notices.say("GET \(redact(job.request.url)): retrying in \(RetryPolicy.spoken(delay)) after \(redact(reason))\(asked) \(attempt)")
        return delay
    }

    /// Says, once per attempt, which transfers have had no answer, or no new bytes, for
    /// `settings.stallNotice` seconds, and when they will be given up.
    private func announceStalls(in attempts: some Sequence<Attempt>, notices: inout NoticeThrottle) {
        let now = Date()
        for attempt in attempts where !attempt.stallAnnounced {
            var status = 0
            blocks_curl_getinfo_long(attempt.handle, CURLINFO_RESPONSE_CODE, &status)
            let marker = (status, attempt.sink.keptCount)
            if marker != attempt.lastProgress {
                attempt.lastProgress = marker
                attempt.lastProgressAt = now
                continue
            }
            let silent = now.timeIntervalSince(attempt.lastProgressAt)
            guard silent >= settings.stallNotice else { continue }
            attempt.stallAnnounced = true
            let what = status == 0 ? "no answer" : "no new data"
            let then = attempt.job.attempts <= settings.retries ? "blocks tries again" : "blocks gives up"
            notices.say(
                "GET \(redact(attempt.job.request.url)): \(what) for \(RetryPolicy.spoken(silent)); the attempt ends after"
                    + " \(settings.lowSpeedTime) s without data, then \(then) (attempt \(attempt.job.attempts) of \(settings.retries + 1))")
        }
    }

    // MARK: - One attempt

    /// Creates the easy handle and the sink for the job's next attempt.
    private func start(_ job: TransferJob) -> Result<Attempt, HTTPError> {
        job.attempts += 1
        let url = job.url
        let cap = min(job.request.maxBodyBytes, TransferLimits.maximumArchiveBytes)
        if job.attempts == 1 && job.redirects == 0 { job.deadline = Date().addingTimeInterval(settings.deadline(forBodyCap: cap)) }
        let remaining = job.deadline.timeIntervalSinceNow
        guard remaining > 0 else { return .failure(deadlinePassed(job)) }
        let headerLines: [String]
        switch requestHeaderLines(for: job) {
        case .success(let lines): headerLines = lines
        case .failure(let error): return .failure(error)
        }
        let sink: BodySink
        do {
            sink = try BodySink(limit: cap, partFile: job.partFile, keepsBody: job.keepsBody, reservedFreeBytes: settings.reservedFreeBytes)
        } catch {
            return .failure(error)
        }
        guard let handle = blocks_curl_easy_init() else {
            sink.discard()
            return .failure(.transport(url: redact(url), reason: "libcurl could not start"))
        }
        let attempt = Attempt(job: job, handle: handle, sink: sink, settings: settings)
        for line in headerLines { attempt.headers = blocks_curl_slist_append(attempt.headers, line) }
        configure(attempt, url: url, cap: cap, remaining: remaining)
        return .success(attempt)
    }

    /// The job's request headers: the token (only to its own origin), the ETag to
    /// revalidate, and the configured headers while the job stays on its first origin.
    private func requestHeaderLines(for job: TransferJob) -> Result<[String], HTTPError> {
        let url = job.url
        var headerLines: [String] = []
        if let token, let tokenOrigin, job.request.sendsDefaultToken, job.staysOnOrigin, HTTPOrigin(url) == tokenOrigin {
            guard !containsControlCharacter(token) else {
                return .failure(.invalidHeader(url: redact(url), reason: "BLOCKS_TOKEN holds a control character; set it to the bare token"))
            }
            headerLines.append("Authorization: Bearer \(token)")
            // Followed hop by hop, so the token never goes to a redirect's other origin.
            job.carriesCredentials = true
        }
        if let etag = job.request.ifNoneMatch, !etag.isEmpty, !containsControlCharacter(etag) {
            headerLines.append("If-None-Match: \(etag)")
        }
        if job.staysOnOrigin {
            for header in job.request.headers {
                // The name is checked where the configuration is read; a value with a line
                // break would smuggle in a header of its own.
                guard !containsControlCharacter(header.name + header.value) else {
                    return .failure(.invalidHeader(url: redact(url), reason: "the header \(header.name) holds a line break or another control character"))
                }
                headerLines.append("\(header.name): \(header.value)")
            }
        }
        return .success(headerLines)
    }

    /// Sets every libcurl option of the attempt: the URL, the limits and deadline, the
    /// protocols and redirects allowed, and the callbacks that take the body and headers.
    private func configure(_ attempt: Attempt, url: String, cap: Int64, remaining: TimeInterval) {
        let job = attempt.job
        let handle = attempt.handle
        blocks_curl_setopt_string(handle, CURLOPT_URL, url)
        blocks_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        blocks_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, attempt.errorBuffer)
        blocks_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, RedirectPolicy.allowedProtocols)
        blocks_curl_setopt_string(
            handle, CURLOPT_REDIR_PROTOCOLS_STR, RedirectPolicy.allowedRedirectProtocols(for: url))
        blocks_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, job.followsRedirectsItself ? 0 : 1)
        blocks_curl_setopt_long(handle, CURLOPT_MAXREDIRS, settings.maxRedirects)
        blocks_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout * 1000))
        blocks_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, settings.lowSpeedLimit)
        blocks_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, settings.lowSpeedTime)
        blocks_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int((remaining * 1000).rounded(.up))))
        blocks_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(cap))
        blocks_curl_setopt_long(handle, CURLOPT_FAILONERROR, 0)
        blocks_curl_setopt_string(handle, CURLOPT_USERAGENT, settings.userAgent)
        // Asks for gzip and has libcurl decode it: a registry's `build` writes `.gz`
        // copies of index.json and the metadata, which nginx's `gzip_static` sends (a
        // 20 MB index is 2 MB gzipped). Archives are already compressed and have none.
        blocks_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "gzip")
        if let authorities = settings.certificateAuthorityFile {
            blocks_curl_setopt_string(handle, CURLOPT_CAINFO, authorities)
        }
        if let headers = attempt.headers { blocks_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers) }
        blocks_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, curlWriteCallback)
        blocks_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(attempt).toOpaque())
        blocks_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        blocks_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, Unmanaged.passUnretained(attempt).toOpaque())
    }

    private enum Outcome {
        case done(Result<HTTPResponse, HTTPError>)
        case retry(reason: String, retryAfter: TimeInterval?)
        /// A redirect this transport follows itself: the job goes again to `job.url`.
        case redirect
    }

    /// Turns a finished attempt into a result, a retry, or a renamed file.
    private func conclude(_ attempt: Attempt, code: CURLcode) -> Outcome {
        let job = attempt.job
        let url = redact(shownURL(of: attempt))
        let sink = attempt.sink
        sink.closeFile()
        var status = 0
        blocks_curl_getinfo_long(attempt.handle, CURLINFO_RESPONSE_CODE, &status)
        guard code == CURLE_OK else { return failed(attempt, code: code, status: status, url: url) }

        let etag = header("ETag", of: attempt.handle)
        if status == 304, job.request.ifNoneMatch != nil || job.partFile == nil {
            sink.discard()
            return .done(.success(HTTPResponse(status: 304, etag: etag ?? job.request.ifNoneMatch)))
        }
        if job.followsRedirectsItself, RedirectPolicy.isRedirect(status) {
            sink.discard()
            return redirect(job, from: attempt)
        }
        let succeeded = job.partFile == nil ? (200...299).contains(status) : status == 200
        guard succeeded else {
            sink.discard()
            job.lastError = .status(url: url, code: status)
            if RetryPolicy.isRetryable(status: status) {
                let retryAfter = header("Retry-After", of: attempt.handle).flatMap { RetryPolicy.retryAfterSeconds($0) }
                return .retry(reason: "HTTP \(status)", retryAfter: retryAfter)
            }
            return .done(.failure(.status(url: url, code: status)))
        }

        guard let part = job.partFile, let destination = job.destination else {
            return .done(.success(HTTPResponse(status: status, etag: etag, body: sink.body)))
        }
        return finishDownload(attempt, part: part, destination: destination, status: status, etag: etag, url: url)
    }

    /// An attempt libcurl ended with an error: the error that explains it best, or a retry
    /// when another attempt may do better.
    private func failed(_ attempt: Attempt, code: CURLcode, status: Int, url: String) -> Outcome {
        let job = attempt.job
        let sink = attempt.sink
        sink.discard()
        if let slow = attempt.tooSlow { return .done(.failure(.tooSlow(url: url, reason: slow))) }
        // libcurl refuses a single header line over 100 KB itself, as "out of memory",
        // before the header callback sees it.
        if attempt.headerTooLarge || (code == CURLE_OUT_OF_MEMORY && sink.byteCount == 0) {
            return .done(.failure(.headerTooLarge(url: url, limit: TransferLimits.maximumHeaderBytes)))
        }
        if code == CURLE_OPERATION_TIMEDOUT, job.deadline.timeIntervalSinceNow <= 0 { return .done(.failure(deadlinePassed(job))) }
        if sink.exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            return .done(.failure(.tooLarge(url: url, limit: sink.limit)))
        }
        if let writeError = sink.writeError, let part = job.partFile {
            return .done(.failure(.file(path: part.path, reason: writeError)))
        }
        if code == CURLE_OPERATION_TIMEDOUT, status == 0, attempt.headerBytes == 0 { return noAnswer(attempt, url: url) }
        var redirects = 0
        blocks_curl_getinfo_long(attempt.handle, CURLINFO_REDIRECT_COUNT, &redirects)
        if code == CURLE_UNSUPPORTED_PROTOCOL, redirects > 0, RedirectPolicy.isHTTP(job.request.url) {
            var target: UnsafeMutablePointer<CChar>?
            blocks_curl_getinfo_string(attempt.handle, CURLINFO_EFFECTIVE_URL, &target)
            log?("GET \(url): refused a redirect to \(redact(target.map { String(cString: $0) } ?? "?"))")
            return .done(.failure(.insecureRedirect(url: url)))
        }
        let reason = describe(code, attempt: attempt)
        job.lastError = .transport(
            url: url, reason: "\(reason) (after \(job.attempts) attempt\(job.attempts == 1 ? "" : "s"))")
        if Self.retryableCodes.contains(code.rawValue) { return .retry(reason: reason, retryAfter: nil) }
        return .done(.failure(.transport(url: url, reason: reason)))
    }

    /// A download into a `.part` file that succeeded: its SHA-256 checked, then renamed
    /// into place.
    private func finishDownload(_ attempt: Attempt, part: URL, destination: URL, status: Int, etag: String?, url: String) -> Outcome {
        let job = attempt.job
        let sink = attempt.sink
        let actual = sink.finishDigest() ?? ""
        if let expected = job.expectedSHA256 {
            do {
                try SHA256.verify(digest: actual, expected: expected) { HTTPError.checksumMismatch(url: url, expected: expected.lowercased(), actual: $0) }
            } catch {
                sink.discard()
                return .done(.failure(error))
            }
        }
        if rename(part.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            sink.discard()
            return .done(.failure(.file(path: destination.path, reason: reason)))
        }
        return .done(.success(HTTPResponse(status: status, etag: etag, body: job.keepsBody ? sink.body : Data())))
    }

    /// The next hop of a redirect this transport follows itself, checked as libcurl checks
    /// the hops it follows: at most `settings.maxRedirects`, only to http or https, and from
    /// https only to https. Leaving the first URL's origin drops its headers for good.
    private func redirect(_ job: TransferJob, from attempt: Attempt) -> Outcome {
        let url = redact(job.request.url)
        var location: UnsafeMutablePointer<CChar>?
        blocks_curl_getinfo_string(attempt.handle, CURLINFO_REDIRECT_URL, &location)
        var status = 0
        blocks_curl_getinfo_long(attempt.handle, CURLINFO_RESPONSE_CODE, &status)
        guard let target = location.map({ String(cString: $0) }), !target.isEmpty else {
            return .done(.failure(.status(url: url, code: status)))
        }
        job.redirects += 1
        guard job.redirects <= settings.maxRedirects else {
            return .done(.failure(.transport(url: url, reason: "more than \(settings.maxRedirects) redirects")))
        }
        let allowed = RedirectPolicy.allowedRedirectProtocols(for: job.url).split(separator: ",")
        guard let scheme = HTTPOrigin(target)?.scheme, allowed.contains(Substring(scheme)) else {
            log?("GET \(url): refused a redirect to \(redact(target))")
            return .done(.failure(.insecureRedirect(url: url)))
        }
        if HTTPOrigin(target) != HTTPOrigin(job.request.url) { job.staysOnOrigin = false }
        log?("GET \(redact(job.url)): HTTP \(status), following to \(redact(target))")
        job.url = target
        return .redirect
    }

    /// The request's URL, and where its redirects led when they led elsewhere: a failure
    /// after a redirect names the server that failed.
    private func shownURL(of attempt: Attempt) -> String {
        let job = attempt.job
        var effective: UnsafeMutablePointer<CChar>?
        blocks_curl_getinfo_string(attempt.handle, CURLINFO_EFFECTIVE_URL, &effective)
        let final = effective.map { String(cString: $0) } ?? job.url
        return final == job.request.url ? job.request.url : "\(job.request.url) (redirected to \(final))"
    }

    /// An attempt that ended without a byte of answer: the connection timed out, or the
    /// server accepted it and said nothing for `lowSpeedTime` seconds. Such a server rarely
    /// answers the next attempt, so it gets `silentAttempts` in all rather than the whole
    /// retry budget: a server that never answers fails in about half a minute (two 15 s
    /// attempts), not a minute, with words that say what happened.
    private func noAnswer(_ attempt: Attempt, url: String) -> Outcome {
        let job = attempt.job
        job.silentAttempts += 1
        // libcurl says "Connection timed out after …" when no connection was made in time.
        let connecting = String(cString: attempt.errorBuffer).hasPrefix("Connection timed out")
        let seconds = connecting ? Int(settings.connectTimeout.rounded(.up)) : settings.lowSpeedTime
        let server = HTTPOrigin(job.url).map { "\($0.host):\($0.port)" } ?? job.url
        let error = HTTPError.noAnswer(url: url, server: server, seconds: seconds, attempts: job.attempts)
        job.lastError = error
        guard job.silentAttempts < Self.silentAttempts, job.attempts <= settings.retries else { return .done(.failure(error)) }
        return .retry(reason: "no answer within \(seconds) s", retryAfter: nil)
    }

    /// Attempts a server that sends nothing at all gets, at most.
    static let silentAttempts = 2

    /// The error of a request whose deadline passed, naming its server and the deadline.
    private func deadlinePassed(_ job: TransferJob) -> HTTPError {
        let limit = min(job.request.maxBodyBytes, TransferLimits.maximumArchiveBytes)
        let server = HTTPOrigin(job.url)?.description ?? job.url
        let reason =
            "the server at \(server) did not finish within \(RetryPolicy.spoken(settings.deadline(forBodyCap: limit))),"
            + " the time blocks gives a body of up to \(limit) bytes (attempt \(job.attempts) of \(settings.retries + 1))"
        return .tooSlow(url: redact(job.url == job.request.url ? job.url : "\(job.request.url) (redirected to \(job.url))"), reason: redact(reason))
    }

    /// libcurl results worth another attempt: the network or the server hiccuped.
    private static let retryableCodes: Set<UInt32> = [
        CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING,
        CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR,
        CURLE_COULDNT_RESOLVE_PROXY,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// libcurl's own message for a failure, which is more precise than the code's name.
    private func describe(_ code: CURLcode, attempt: Attempt) -> String {
        let buffered = String(cString: attempt.errorBuffer)
        let text = buffered.isEmpty ? String(cString: blocks_curl_easy_strerror(code)) : buffered
        if code == CURLE_OPERATION_TIMEDOUT {
            return "\(text); the server is too slow or unreachable"
        }
        if code == CURLE_UNSUPPORTED_PROTOCOL {
            return "\(text); use an http:// or https:// URL"
        }
        return text
    }

    /// One header of the last response (after redirects), or nil.
    private func header(_ name: String, of handle: UnsafeMutableRawPointer) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard blocks_curl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK,
            let value = found?.pointee.value
        else { return nil }
        return String(cString: value)
    }

    private func containsControlCharacter(_ text: String) -> Bool {
        TerminalText.firstControl(in: text) != nil
    }

    // MARK: - Keeping the token secret

    /// The text with the token, and any URL's password, taken out.
    func redact(_ text: String) -> String {
        let masked = URLUserinfo.masked(in: text)
        guard let token else { return masked }
        return masked.replacing(token, with: "<BLOCKS_TOKEN>")
    }

    func redact(_ error: HTTPError) -> HTTPError {
        switch error {
        case .status(let url, let code): return .status(url: redact(url), code: code)
        case .retryLater(let url, let code, let seconds, let limit):
            return .retryLater(url: redact(url), code: code, seconds: seconds, limit: limit)
        case .transport(let url, let reason): return .transport(url: redact(url), reason: redact(reason))
        case .tooLarge(let url, let limit): return .tooLarge(url: redact(url), limit: limit)
        case .checksumMismatch(let url, let expected, let actual):
            return .checksumMismatch(url: redact(url), expected: expected, actual: actual)
        case .insecureRedirect(let url): return .insecureRedirect(url: redact(url))
        case .offline(let url): return .offline(url: redact(url))
        case .file(let path, let reason): return .file(path: path, reason: redact(reason))
        case .unsetVariable(let url, let variable, let headersOf): return .unsetVariable(url: redact(url), variable: variable, headersOf: headersOf)
        case .refusedHeaders(let url, let code, let headersOf, let variables):
            return .refusedHeaders(url: redact(url), code: code, headersOf: headersOf, variables: variables)
        case .invalidHeader(let url, let reason): return .invalidHeader(url: redact(url), reason: redact(reason))
        case .tooSlow(let url, let reason): return .tooSlow(url: redact(url), reason: redact(reason))
        case .noAnswer(let url, let server, let seconds, let attempts):
            return .noAnswer(url: redact(url), server: redact(server), seconds: seconds, attempts: attempts)
        case .headerTooLarge(let url, let limit): return .headerTooLarge(url: redact(url), limit: limit)
        }
    }
}

extension RedirectPolicy {
    /// True for an http(s) URL, its scheme in any case (`HTTP://` too): the one test of
    /// "is this a URL the transport fetches" that commands, the mirror and this use.
    static func isHTTP(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}

/// The state of one `run`: jobs waiting for a slot or for their backoff to pass, the
/// transfers in flight by their easy handle, and what is reported while they go.
private struct TransferRound {
    var pending: [TransferJob]
    var active: [UnsafeMutableRawPointer: Attempt] = [:]
    let limit: Int
    var progress: ProgressTracker
    var notices: NoticeThrottle

    init(pending: [TransferJob], limit: Int, progress: ProgressTracker, notices: NoticeThrottle) {
        self.pending = pending
        self.limit = limit
        self.progress = progress
        self.notices = notices
    }

    var isOver: Bool { pending.isEmpty && active.isEmpty }
}

/// Keeps a batch's notices to one every `interval` seconds: a server that dies under a
/// thousand downloads would otherwise announce each of their retries. What is held back
/// is counted in the next notice.
private struct NoticeThrottle {
    let notice: (@Sendable (String) -> Void)?
    var throttle: Throttle
    var heldBack = 0

    init(notice: (@Sendable (String) -> Void)?, interval: TimeInterval) {
        self.notice = notice
        throttle = Throttle(interval: interval)
    }

    mutating func say(_ line: String) {
        guard let notice else { return }
        guard throttle.allows() else {
            heldBack += 1
            return
        }
        notice(heldBack == 0 ? line : line + "; \(heldBack) more like it since the last note")
        heldBack = 0
    }
}

/// Idle multi handles of one transport, each with the origins it has talked to. A handle
/// keeps its connections open between calls, so a call takes the handle that last talked
/// to one of its origins: when two registries are read at once, on two threads, each
/// round after the first finds its own server's connections open rather than the other
/// one's. Freed with the transport.
private final class MultiHandlePool: @unchecked Sendable {
    private let lock = Lock()
    private var idle: [(handle: UnsafeMutableRawPointer, origins: Set<HTTPOrigin>)] = []
    /// Past this many idle handles, a call to new servers takes the oldest rather than
    /// making another, so a command that talks to many servers keeps a few handles.
    static let idleLimit = 4

    /// The idle handle that knows one of `origins` (else one that knows no origin yet,
    /// else a new one), with the origins it knows; nil when libcurl cannot make one. A
    /// handle holding another server's connections is left for the call that wants them:
    /// when two registries are read at once, taking it would make each call open new
    /// connections to a server the other handle is already connected to.
    func take(for origins: Set<HTTPOrigin>) -> (handle: UnsafeMutableRawPointer, origins: Set<HTTPOrigin>)? {
        let taken = lock.withLock { () -> (handle: UnsafeMutableRawPointer, origins: Set<HTTPOrigin>)? in
            guard
                let index = idle.lastIndex(where: { !$0.origins.isDisjoint(with: origins) }) ?? idle.lastIndex(where: { $0.origins.isEmpty })
                    ?? (idle.count >= Self.idleLimit ? idle.indices.first : nil)
            else { return nil }
            return idle.remove(at: index)
        }
        return taken ?? blocks_curl_multi_init().map { ($0, []) }
    }

    /// Takes back a handle with no transfers in it, and the origins it has talked to.
    func give(_ handle: UnsafeMutableRawPointer, origins: Set<HTTPOrigin>) {
        lock.withLock { idle.append((handle, origins)) }
    }

    deinit {
        for entry in idle { blocks_curl_multi_cleanup(entry.handle) }
    }
}

/// One attempt: the easy handle and everything it points to, which must outlive it.
private final class Attempt {
    let job: TransferJob
    let handle: UnsafeMutableRawPointer
    let sink: BodySink
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headers: UnsafeMutablePointer<curl_slist>?
    /// The status and kept bytes when last looked at, and since when they have not moved.
    var lastProgress = (0, Int64(0))
    var lastProgressAt = Date()
    var stallAnnounced = false
    /// When the attempt started, and the response's header bytes so far: a server that
    /// drips bytes slower than `minimumAverageRate` is stopped, and so is one whose
    /// headers pass `TransferLimits.maximumHeaderBytes`.
    let startedAt = Date()
    var headerBytes = 0
    let minimumAverageRate: Int
    let rateGracePeriod: TimeInterval
    /// Why the attempt was stopped as too slow; nil while it was not.
    var tooSlow: String?
    var headerTooLarge = false

    init(job: TransferJob, handle: UnsafeMutableRawPointer, sink: BodySink, settings: TransferSettings) {
        self.job = job
        self.handle = handle
        self.sink = sink
        minimumAverageRate = settings.minimumAverageRate
        rateGracePeriod = settings.rateGracePeriod
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// Frees the handle; call once, after it left the multi handle.
    func release() {
        blocks_curl_easy_cleanup(handle)
        blocks_curl_slist_free_all(headers)
        headers = nil
    }

    deinit { errorBuffer.deallocate() }

    /// Bytes of a success response, and only those, reach the sink's file or memory.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if sink.keepsBytes == nil {
            var status = 0
            blocks_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            sink.keepsBytes = (200...299).contains(status)
        }
        return sink.receive(bytes) && isFastEnough()
    }

    /// Counts a header line; false past the header cap or when the server is too slow.
    func receiveHeader(_ count: Int) -> Bool {
        headerBytes += count
        if headerBytes > TransferLimits.maximumHeaderBytes {
            headerTooLarge = true
            return false
        }
        return isFastEnough()
    }

    /// False (and `tooSlow` set) once the grace period has passed with the average rate
    /// under the minimum.
    func isFastEnough() -> Bool {
        let elapsed = Date().timeIntervalSince(startedAt)
        guard elapsed >= rateGracePeriod else { return true }
        let received = sink.byteCount + Int64(headerBytes)
        guard Double(received) / elapsed < Double(minimumAverageRate) else { return true }
        let server = HTTPOrigin(job.url)?.description ?? job.url
        tooSlow =
            "the server at \(server) sent \(received) bytes in \(RetryPolicy.spoken(elapsed)),"
            + " under the \(minimumAverageRate) bytes a second blocks waits for"
        return false
    }
}

/// libcurl's write callback: hands each chunk to the attempt; a short count aborts.
private func curlWriteCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let total = size * count
    guard let context, let data, total > 0 else { return total }
    let attempt = Unmanaged<Attempt>.fromOpaque(context).takeUnretainedValue()
    return attempt.receive(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

/// libcurl's header callback: counts each header line against the header cap.
private func curlHeaderCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let total = size * count
    guard let context, total > 0 else { return total }
    let attempt = Unmanaged<Attempt>.fromOpaque(context).takeUnretainedValue()
    return attempt.receiveHeader(total) ? total : 0
}
