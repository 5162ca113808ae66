//! What a box keeps out of reach in `strict`: Unix sockets outside it (a pathname socket
//! open to all, an abstract one, the system's services), socket families other than the
//! few a program needs, and io_uring.

use std::fs;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{SocketAddr, UnixListener};

use crate::runs::{Row, grade_rows, limits};
use crate::scene::Scene;

const SOCKETS: &[Row] = &[
    ("ac_unix_sockets_strict.c", None, "AC"),
    ("ac_socket_families_strict.c", None, "AC"),
    ("ac_io_uring_strict.c", None, "AC"),
];

pub(crate) fn unix_sockets_outside_other_families_and_io_uring_are_out_of_reach() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let path = scene.path("service.sock");
    let service = UnixListener::bind(&path).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
    service.set_nonblocking(true).unwrap();
    let name = format!("grader-hostile-{}", scene.nonce);
    let abstract_service =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    abstract_service.set_nonblocking(true).unwrap();
    let vars = [
        ("SOCKET", path.to_string_lossy().into_owned()),
        ("ABSTRACT", name.clone()),
    ];
    let test = "unix_sockets_outside_other_families_and_io_uring";
    let in_tier = |tier| limits(tier, 1, 3, 256);
    grade_rows(
        &mut scene,
        test,
        SOCKETS,
        &cases,
        in_tier,
        &vars,
        |scene, label, _| {
            for (listener, which) in [(&service, "pathname"), (&abstract_service, "abstract")] {
                if listener.accept().is_ok() {
                    scene.fail(format!("{label}: the {which} socket outside was reached"));
                }
            }
        },
    );
    scene.finish();
}
