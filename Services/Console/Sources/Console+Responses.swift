import HTTPTypes
import Hummingbird
import NIOCore

/// The console's responses: pages that are never cached, plain text for the page's script,
/// redirects after a form, its cookies.
extension Console {
    func cookie(_ name: String, _ value: String, request: Request, maxAge: Int?, path: String = "/") -> Cookie {
        let secure = settings.servedOverTLS || (settings.behindTLSProxy && request.headers[.xForwardedProto]?.lowercased() == "https")
        return Cookie(name: name, value: value, maxAge: maxAge, path: path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// What went wrong, as a page with the error's status.
    func problemPage(_ error: ConsoleError, session: ParentSession?) -> Response {
        Self.html(templates.page("problem", ["problem": error.description], title: "Problem", session: session), status: HTTPResponse.Status(code: error.status))
    }

    static func text(_ body: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func redirect(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// A form's success: the page's script wants no body, a plain form goes back to its page.
    static func done(_ request: Request, redirect location: String) -> Response {
        request.headers[.consoleFetch] != nil ? Response(status: .noContent) : redirect(location)
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension HTTPField.Name {
    static let consoleFetch = Self("X-Console-Fetch")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
