package rest

import (
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/reten-io/reten/internal/auth"
)

// RefreshCookie is the name of the HTTP-only refresh-token cookie.
const RefreshCookie = "reten_refresh_token"

// refreshCookiePath limits the cookie to the auth routes that read it.
const refreshCookiePath = "/api/auth"

type sessionResponse struct {
	AccessToken string         `json:"accessToken"`
	User        auth.LoginUser `json:"user"`
}

func (a *api) login(w http.ResponseWriter, r *http.Request) error {
	// Brute-force protection: per client IP first, then per account (the
	// identifier's user; the identifier itself when it names none).
	if err := a.Limiter.LoginIP(w, r); err != nil {
		return err
	}
	b, err := decodeBody(r, "identifier", "password")
	if err != nil {
		return err
	}
	identifier, password := b.str("identifier").OrZero(), b.str("password").OrZero()
	if err := b.err(); err != nil {
		return err
	}
	account, err := a.Auth.LoginAccount(r.Context(), identifier)
	if err != nil {
		return err
	}
	if err := a.Limiter.LoginIdentifier(w, r, identifier, account); err != nil {
		return err
	}
	sess, err := a.Auth.Login(r.Context(), auth.LoginInput{
		Identifier: identifier, Password: password, UserAgent: r.UserAgent(), IP: clientIP(r),
	})
	if err != nil {
		return err
	}
	a.setRefreshCookie(w, sess.RefreshToken, sess.RefreshUntil)
	writeJSON(w, http.StatusCreated, sessionResponse{AccessToken: sess.AccessToken, User: sess.User})
	return nil
}

func (a *api) refresh(w http.ResponseWriter, r *http.Request) error {
	sess, err := a.Auth.Refresh(r.Context(), refreshToken(r), r.UserAgent(), clientIP(r))
	if err != nil {
		if !errors.Is(err, auth.ErrRefreshRaced) { // a concurrent winner set the cookie to keep
			a.clearRefreshCookie(w)
		}
		return err
	}
	a.setRefreshCookie(w, sess.RefreshToken, sess.RefreshUntil)
	writeJSON(w, http.StatusCreated, sessionResponse{AccessToken: sess.AccessToken, User: sess.User})
	return nil
}

func (a *api) logout(w http.ResponseWriter, r *http.Request) error {
	if err := a.Auth.Logout(r.Context(), refreshToken(r)); err != nil {
		return err
	}
	a.clearRefreshCookie(w)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func refreshToken(r *http.Request) string {
	if c, err := r.Cookie(RefreshCookie); err == nil {
		return c.Value
	}
	return ""
}

func (a *api) setRefreshCookie(w http.ResponseWriter, token string, until time.Time) {
	http.SetCookie(w, &http.Cookie{
		Name: RefreshCookie, Value: token, Path: refreshCookiePath, Expires: until,
		MaxAge: int(time.Until(until).Seconds()), HttpOnly: true, Secure: a.SecureCookies,
		SameSite: http.SameSiteStrictMode,
	})
}

func (a *api) clearRefreshCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{
		Name: RefreshCookie, Value: "", Path: refreshCookiePath, MaxAge: -1, HttpOnly: true,
		Secure: a.SecureCookies, SameSite: http.SameSiteStrictMode,
	})
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
