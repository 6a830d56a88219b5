"""The socket a warm kernel opens to learn its page's request (``/voila/query/<kernel id>``) is
asked for by this machine's kernels only, one a kernel: Voila keeps the last one opened as the
kernel's waiter, so a browser's would read the hand-over or leave the kernel's page waiting."""

from __future__ import annotations

from typing import Any

import pytest
from tornado import web
from voila.request_info_handler import RequestInfoSocketHandler

from capital_lux.serve.app import ClassRequestInfo


def _socket(address: str, kernel_id: str) -> Any:
    socket: Any = ClassRequestInfo.__new__(ClassRequestInfo)
    socket.request = type("Request", (), {"remote_ip": address})()
    socket.path_kwargs = {"kernel_id": kernel_id}
    return socket


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2"])
def test_a_kernel_of_this_machine_may_ask_once(address: str) -> None:
    _socket(address, "kernel-a").prepare()  # no refusal
    RequestInfoSocketHandler._waiters["kernel-a"] = object()
    try:
        with pytest.raises(web.HTTPError) as refused:
            _socket(address, "kernel-a").prepare()
        assert refused.value.status_code == 409  # the kernel's own socket stays its waiter
        _socket(address, "kernel-b").prepare()  # another kernel may
    finally:
        RequestInfoSocketHandler._waiters.pop("kernel-a", None)


@pytest.mark.parametrize("address", ["10.0.0.7", "192.168.1.20", "2001:db8::1", "", "not-an-address"])
def test_a_browser_elsewhere_is_refused_before_the_upgrade(address: str) -> None:
    with pytest.raises(web.HTTPError) as refused:
        _socket(address, "kernel-a").prepare()
    assert refused.value.status_code == 403 and "kernel-a" not in RequestInfoSocketHandler._waiters
