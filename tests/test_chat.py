"""The one chat client (`lae.chat`): redaction, public URLs, proxies, reply shapes."""

from __future__ import annotations

import pytest

from lae.chat import ChatError, Endpoint, parse_reply, public_url, redact
from tests.chat_server import ChatServer

KEY = "sk-live-abcdef0123456789"


@pytest.mark.parametrize("text", [
    f"Authorization: Bearer {KEY}",
    f'{{"authorization": "Bearer {KEY}"}}',
    f"api-key: {KEY}",
    f"https://x.invalid/v1?api_key={KEY}&x=1",
    f"token {KEY} echoed",
    "x-api-key=" + "zz-other-secret-999",
    "proxy-authorization: Basic dXNlcjpwYXNz",
], ids=["header", "json", "api-key", "query", "bare-key", "x-api-key", "basic"])
def test_redact_removes_the_key_and_credential_values(text):
    out = redact(text, (KEY,))
    assert KEY not in out and "zz-other-secret-999" not in out and "dXNlcjpwYXNz" not in out
    assert "[REDACTED]" in out


def test_public_url_drops_user_info_query_and_fragment():
    assert public_url(f"https://u:{KEY}@api.example.com:8443/v1?api-key={KEY}#f") == "https://api.example.com:8443/v1"


def test_http_proxy_from_the_environment_is_honoured(monkeypatch):
    with ChatServer() as proxy:
        monkeypatch.setenv("http_proxy", proxy.base_url.rsplit("/v1", 1)[0])
        monkeypatch.setenv("no_proxy", "")
        reply = Endpoint("saver", "http://example.invalid/v1", "k", retries=0).complete(
            [{"role": "user", "content": "Deliverable(s) to save: m.docx"}])
        assert proxy.requests[0]["path"] == "http://example.invalid/v1/chat/completions"
    assert reply.message["tool_calls"][0]["function"]["name"] == "list_documents"
    assert reply.usage.total_tokens == 120


@pytest.mark.parametrize("payload, field", [
    ([], "the reply is a list"),
    ({"choices": []}, "choices must be a non-empty list"),
    ({"choices": [{"message": "hi"}]}, "choices[0].message must be an object"),
    ({"choices": [{"message": {"content": 5}}]}, "content is a number"),
    ({"choices": [{"message": {"tool_calls": {"a": 1}}}]}, "tool_calls is an object"),
    ({"choices": [{"message": {"tool_calls": [{"function": {"name": 3}}]}}]}, "function.name is a number"),
    ({"choices": [{"message": {"tool_calls": [{"function": {"name": "x", "arguments": [1]}}]}}]}, "arguments is a list"),
], ids=["list", "no-choices", "message-string", "content-number", "tool-calls-object", "name-number", "arguments-list"])
def test_parse_reply_names_the_bad_field(payload, field):
    with pytest.raises(ValueError, match=None) as info:
        parse_reply(payload)
    assert field in str(info.value)


def test_unknown_status_is_final_with_the_servers_message():
    with ChatServer() as server:
        with pytest.raises(ChatError) as info:
            Endpoint("missing-model", server.base_url, "k", retries=3, backoff=0.01).complete([])
        assert len(server.requests) == 1
    assert info.value.status == 404 and "does not exist" in str(info.value)


def test_a_reply_loses_only_the_key_never_the_models_words():
    with ChatServer() as server:
        reply = Endpoint("echo-key-ok", server.base_url, KEY, retries=0).complete([{"role": "user", "content": "x"}])
    text = reply.message["content"]
    assert KEY not in text and text.endswith("You sent Bearer [REDACTED]")
    assert text.startswith("Board authorization: pending. Bearer bonds are excluded.")
