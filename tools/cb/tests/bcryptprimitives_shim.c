/*
 * Test-only stand-in for bcryptprimitives.dll under Wine 8 (Debian 12), which lacks it.
 * Rust's standard library (1.78 and later) takes its random seeds from ProcessPrng in that
 * DLL, which every supported Windows (10 and later) has; Wine added it in version 9. This
 * shim forwards to RtlGenRandom (advapi32's SystemFunction036), which Wine 8 has. It is put
 * next to the test programs in the Wine run only and is never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		len -= chunk;
	}
	return TRUE;
}
