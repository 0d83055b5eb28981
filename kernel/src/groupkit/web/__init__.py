"""The pages: page rendering and headers, forms without JavaScript (decoding, flash,
refilling a form with its error), the share sheet and QR codes, the kernel-drawn sign-up
rows, and the kernel's templates and static files. It imports `groupkit.core` and
`groupkit.blocks` (a page shows what a block holds, such as a chat delivery log), never
`groupkit.ops`.
"""
