"""Plain-Python references, one module per concept: loops, exact ``int`` / ``Fraction``.

Every fast kernel of the package is compared with one of these (``ref = naive.x.f(...);
comp = f(...)``). They are slow on purpose and share no code with the package.
"""
