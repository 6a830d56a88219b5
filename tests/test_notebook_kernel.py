"""The notebooks are tested in kernels started as the class server starts its own."""

from __future__ import annotations

import pytest
from jupyter_client.kernelspec import KernelSpecManager

from capital_lux.serve import guards
from capital_lux.serve.kernel import KERNEL_ARGUMENTS
from conftest import SERVED_KERNEL


def test_the_notebooks_kernel_has_the_class_servers_arguments(pytestconfig: pytest.Config) -> None:
    spec = KernelSpecManager().get_kernel_spec(SERVED_KERNEL)
    assert spec.argv[-len(KERNEL_ARGUMENTS):] == list(KERNEL_ARGUMENTS)
    assert guards.KERNEL_ARGUMENTS is KERNEL_ARGUMENTS  # the server's, not a copy
    assert "--IPKernelApp.extensions=capital_lux.serve.kernel" in KERNEL_ARGUMENTS
    named = any(str(a).startswith("--nbval-kernel-name") for a in pytestconfig.invocation_params.args)
    assert named or pytestconfig.option.nbval_kernel_name == SERVED_KERNEL
