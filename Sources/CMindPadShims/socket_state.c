/* The kernel's view of a socket's sending side, for the transport's judge of
 * slow readers and its wait for goodbyes (WebServer+Liveness, WebServer).
 * <linux/tcp.h>, not glibc's <netinet/tcp.h>: only the kernel's header has
 * tcpi_bytes_acked (Linux 4.1), and the two cannot be included together. */
#include "CMindPadShims.h"
#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

int CMindPadShims_tcp_queued(int fd) {
    int outq = 0;
    if (ioctl(fd, SIOCOUTQ, &outq) < 0) return -1;
    return outq < 0 ? 0 : outq;
}

int CMindPadShims_tcp_acked(int fd, uint64_t *acked) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) < 0) return -1;
    /* A kernel whose tcp_info ends before tcpi_bytes_acked (older than 4.1)
     * reports nothing: the caller then sees progress as its queue going down. */
    if (length < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof info.tcpi_bytes_acked) return -1;
    *acked = info.tcpi_bytes_acked;
    return 0;
}

int CMindPadShims_set_send_buffer(int fd, int bytes) {
    return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

int CMindPadShims_send_buffer(int fd) {
    int bytes = 0;
    socklen_t length = sizeof bytes;
    if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, &length) < 0) return -1;
    return bytes;
}
