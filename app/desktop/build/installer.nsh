; Included by electron-builder's NSIS installer (electron-builder.yml, nsis.include).
;
; Tablets reach the hub over the venue's network on its port (8080 unless comanda.json says
; otherwise). Windows Firewall blocks that by default, so the first install adds one inbound
; rule for that TCP port on private networks only (never public Wi-Fi), and the uninstaller
; removes it. The install itself is per user and needs no administrator; this rule does, so
; it is one UAC prompt while the owner is at the PC. Updates (silent, at night) skip it: the
; rule is for the port, not for the program's path, and outlives every update.

!define COMANDA_FIREWALL_RULE "comanda hub (tablets)"
!define COMANDA_PORT "8080"

!macro customInstall
  ; The way back from a later update that does not start (app/desktop/rollback.ts): this very
  ; installer, kept in the app's data folder. A failed copy changes nothing of the install.
  CreateDirectory "$APPDATA\comanda\installers\${VERSION}"
  CopyFiles /SILENT "$EXEPATH" "$APPDATA\comanda\installers\${VERSION}"
  ${ifNot} ${isUpdated}
    ; one elevated command (one UAC prompt): drop a rule left by an earlier install, add ours
    ExecShellWait "runas" "$SYSDIR\cmd.exe" '/c netsh advfirewall firewall delete rule name="${COMANDA_FIREWALL_RULE}" >nul & netsh advfirewall firewall add rule name="${COMANDA_FIREWALL_RULE}" dir=in action=allow protocol=TCP localport=${COMANDA_PORT} profile=private' SW_HIDE
  ${endIf}
!macroend

!macro customUnInstall
  ${ifNot} ${isUpdated}
    ExecShellWait "runas" "$SYSDIR\netsh.exe" 'advfirewall firewall delete rule name="${COMANDA_FIREWALL_RULE}"' SW_HIDE
  ${endIf}
!macroend
