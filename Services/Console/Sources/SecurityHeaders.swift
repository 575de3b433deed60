import HTTPTypes
import Hummingbird

/// Headers on every response: a Content-Security-Policy that allows only the console's own
/// origin (no outside host, no inline script; images also from the tile server, when one is set), no framing, no sniffing, no referrer to other sites
/// (`same-origin`: with `no-referrer` browsers send `Origin: null`, which the origin check refuses).
struct SecurityHeaders: RouterMiddleware {
    typealias Context = BasicRequestContext

    let contentSecurityPolicy: String

    init(tiles: MapTiles? = nil) {
        contentSecurityPolicy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:" + (tiles.map { " \($0.origin)" } ?? ""),
            "connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
        ].joined(separator: "; ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        return response
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
